/**
 * The progress bar on stderr (cli-progress: maintained, handles terminal width, cursor hiding and ETA smoothing).
 * Drawn only when stderr is a terminal and `--quiet` is off, so logs and pipes never receive control codes.
 */
import cliProgress from 'cli-progress';

/** What the run reports as it goes. */
export interface Progress {
  /** Bytes read and chunks written since the last call. */
  advance(bytes: number, chunks: number): void;
  /** One more file done (or failed). */
  fileDone(): void;
  /** Prints a line above the bar (a skipped file, an error) without tearing it. */
  log(line: string): void;
  stop(): void;
}

/** Settings of `createProgress`. */
export interface ProgressOptions {
  readonly enabled: boolean;
  readonly files: number;
  /** Bytes of all inputs, when known; standard input adds nothing. */
  readonly totalBytes: number;
  readonly stream?: NodeJS.WriteStream;
}

/** Bytes as megabytes with one decimal. */
function megabytes(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

/** Creates the progress bar, or a silent stand-in that only forwards `log` lines to stderr. */
export function createProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  if (!options.enabled) {
    return { advance() {}, fileDone() {}, log: (line) => void stream.write(line + '\n'), stop() {} };
  }
  const started = Date.now();
  // What has been done so far.
  const done = { bytes: 0, chunks: 0, files: 0 };
  const bar = new cliProgress.SingleBar(
    {
      stream,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
      fps: 8,
      format: '{bar} {percentage}% | {files}/{totalFiles} files | {mb} MB | {chunks} chunks | {rate} MB/s | ETA {eta_formatted}',
    },
    cliProgress.Presets.shades_classic,
  );
  const payload = () => ({
    files: done.files,
    totalFiles: options.files,
    mb: megabytes(done.bytes),
    chunks: done.chunks,
    rate: megabytes(done.bytes / Math.max(0.001, (Date.now() - started) / 1000)),
  });
  bar.start(Math.max(1, options.totalBytes), 0, payload());
  return {
    advance(b, c) {
      done.bytes += b;
      done.chunks += c;
      bar.update(Math.min(done.bytes, Math.max(1, options.totalBytes)), payload());
    },
    fileDone() {
      done.files++;
      bar.update(payload());
    },
    log(line) {
      // cli-progress redraws on the next update; clearing the line first keeps the note readable.
      stream.write('\r\x1b[2K' + line + '\n');
      bar.render();
    },
    stop() {
      bar.stop();
    },
  };
}

/**
 * A TCP proxy that can cut a worker off from Redis without closing anything: while it is paused, bytes stop
 * flowing both ways on every connection (those opened meanwhile too), as across a network partition, and the
 * sockets stay open, so the client neither errors nor reconnects. Resumed, the bytes held back flow on.
 */
import { connect, createServer, type Socket } from 'node:net';

/** A running proxy to one loopback port. */
export interface TcpProxy {
  readonly port: number;
  /** Stops every byte both ways until `resume()`. */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port that forwards to `targetPort`. */
export function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const state = { paused: false };
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (state.paused) socket.pause();
  };
  const forward = (from: Socket, to: Socket): void => {
    from.on('data', (bytes: Buffer) => {
      if (!to.write(bytes)) from.pause();
    });
    to.on('drain', () => state.paused || from.resume());
    from.on('end', () => to.end());
    from.on('close', () => to.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    track(client);
    track(upstream);
    forward(client, upstream);
    forward(upstream, client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (typeof address !== 'object' || address === null) return reject(new Error('no port'));
      resolve({
        port: address.port,
        pause() {
          state.paused = true;
          for (const s of sockets) s.pause();
        },
        resume() {
          state.paused = false;
          for (const s of sockets) s.resume();
        },
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

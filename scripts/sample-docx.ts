/**
 * Makes `samples/onboarding.docx`, the Word file among the samples: headings at three levels, paragraphs with
 * inline styles, bulleted and numbered lists, and a table with a header row, written with the `docx` writer. Run it
 * after changing it:
 *
 *     npx tsx scripts/sample-docx.ts
 *
 * The file holds the time it was written, so it differs byte for byte between runs; its chunks do not (the golden
 * test holds them).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Document, HeadingLevel, LevelFormat, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';

/** Where the sample is written. */
export const SAMPLE_DOCX = fileURLToPath(new URL('../samples/onboarding.docx', import.meta.url));

const heading = (text: string, heading: (typeof HeadingLevel)[keyof typeof HeadingLevel]) => new Paragraph({ text, heading });
const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
const bullet = (text: string) => new Paragraph({ text, bullet: { level: 0 } });
const step = (text: string) => new Paragraph({ text, numbering: { reference: 'steps', level: 0 } });

/** The sample document. */
export function sampleDocx(): Document {
  return new Document({
    creator: 'chunkstream',
    title: 'Onboarding',
    numbering: { config: [{ reference: 'steps', levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.' }] }] },
    sections: [
      {
        children: [
          heading('Onboarding Guide', HeadingLevel.HEADING_1),
          new Paragraph({
            children: [
              new TextRun('Welcome to the team. This guide takes you through your first week: the accounts you need, the '),
              new TextRun({ text: 'tools', bold: true }),
              new TextRun(' we use every day and the people to ask when something is unclear.'),
            ],
          }),
          heading('Your First Day', HeadingLevel.HEADING_2),
          new Paragraph('Your manager meets you at the front desk at nine. Bring an identity document; the badge is printed on the spot.'),
          step('Collect your laptop and badge from the front desk.'),
          step('Sign in and change the temporary password.'),
          step('Join the team channel and introduce yourself.'),
          heading('Accounts', HeadingLevel.HEADING_3),
          new Paragraph('Every account is created before your first day. If one is missing, ask the service desk rather than a colleague.'),
          new Table({
            rows: [
              new TableRow({ tableHeader: true, children: [cell('System'), cell('What it is for'), cell('Who grants it')] }),
              new TableRow({ children: [cell('Mail'), cell('Mail and calendar'), cell('Service desk')] }),
              new TableRow({ children: [cell('Source control'), cell('Code and reviews'), cell('Your manager')] }),
              new TableRow({ children: [cell('Wiki'), cell('Handbooks and decisions'), cell('Service desk')] }),
            ],
          }),
          heading('Your First Week', HeadingLevel.HEADING_2),
          new Paragraph('By the end of the week you should have shipped a small change. Good first changes are:'),
          bullet('a fix to the documentation you read this week;'),
          bullet('a test for a function that has none;'),
          bullet('a clearer error message.'),
          heading('Who to Ask', HeadingLevel.HEADING_3),
          new Paragraph('Your buddy answers day-to-day questions. Questions about pay and leave go to people operations.'),
        ],
      },
    ],
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SAMPLE_DOCX, await Packer.toBuffer(sampleDocx()));
  console.log(`wrote ${SAMPLE_DOCX}`);
}

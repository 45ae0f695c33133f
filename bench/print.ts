/**
 * Print templates: the two ways a case becomes a PDF, timed in one process
 * (median of 50 runs each, after 5 warm-up runs):
 * - the W-9 fixture (tests/fixtures/w9-sample.pdf) filled and flattened with
 *   the pdf-lib fork (@cantoo/pdf-lib), as server/modules/printing/pdf.ts does;
 * - a one-page letter rendered with pdfmake (fonts from its own virtual file
 *   system, every file and URL refused), as server/modules/printing/letter.ts does.
 * Run: node --import tsx bench/print.ts   (RUNS=50)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { htmlToBlocks, renderLetter } from '../server/modules/printing/letter.js';
import { fillAndFlatten } from '../server/modules/printing/pdf.js';

const RUNS = Number(process.env.RUNS ?? 50);
const here = path.dirname(fileURLToPath(import.meta.url));
const w9 = readFileSync(path.join(here, '../tests/fixtures/w9-sample.pdf'));
const values = { name: 'Ana Pérez', businessName: 'Pérez Rentals LLC', address: '1 Main St, Apt 4', cityStateZip: 'Orlando, FL 32801', ssn: '123-45-6789', ein: '', taxClassification: 'LLC', individual: 'Yes' };
const body = htmlToBlocks(
  '<p>Dear Ana Pérez,</p><p>We write to you about your application <strong>2026-11-0042</strong> to the Rental Assistance Program. Its state is now: <strong>Pending</strong>.</p>' +
    '<ul><li>Lease</li><li>Pay stubs</li><li>Bank statements</li></ul><p>You can follow your application online. For any question, call us at +1 555 0100.</p><p>Sincerely,</p><p>Rental Assistance Program</p>',
);

async function median(label: string, run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const m = times[Math.floor(times.length / 2)];
  console.log(`${label}: median ${m.toFixed(1)} ms (min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)}, ${RUNS} runs)`);
  return m;
}

await median('AcroForm W-9 fill + flatten (@cantoo/pdf-lib)', () => fillAndFlatten(w9, values));
await median('one-page letter (pdfmake)', () =>
  renderLetter({ title: 'Notification letter', header: 'Rental Assistance Program', content: body, pageLabel: (p, n) => `Page ${p} of ${n}`, language: 'en' }),
);

/**
 * The export writers (server/lib/tableFile.ts over csv-stringify and
 * exceljs's streaming writer): ROWS rows of 27 columns, shaped like the case
 * export's and the data tape's (number, state, names, dates, a flag, twenty
 * form fields), written as CSV and as Excel, each in a process of its own so
 * that its peak resident memory is the writer's.
 *   stream: rows made one at a time and written to a file (the data tape);
 *   buffer: every row in memory first, the file collected into one Buffer
 *           (the case export, which keeps its file in one bytea).
 * Run: node --import tsx bench/table-export.ts   (ROWS, default 100,000)
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Cell, tableBytes, type TableFormat, tableWriter } from '../server/lib/tableFile.js';

const ROWS = Number(process.env.ROWS ?? 100_000);
const HEADER = ['number', 'state', 'protocol', 'applicant', 'owner', 'docDate', 'possibleDuplicated', ...Array.from({ length: 20 }, (_, i) => `field${i + 1}`)];

function row(i: number): Cell[] {
  const fields: Cell[] = Array.from({ length: 20 }, (_, f) => (f % 4 === 0 ? 500 + ((i * (f + 1)) % 900) + 0.5 : f % 4 === 1 ? `Valor ${i}-${f}` : f % 4 === 2 ? (i + f) % 3 === 0 : `texto, "con" comillas ${i % 97}`));
  return [`2026-11-${String(i).padStart(6, '0')}`, 'PENDING', 'Rental assistance', `Nombre${i} Núñez ${i}`, 'Carla Coordinator', new Date(Date.UTC(2026, i % 12, 1 + (i % 28))), i % 17 === 0, ...fields];
}

async function runOne(mode: 'stream' | 'buffer', format: TableFormat, file: string) {
  const started = performance.now();
  if (mode === 'stream') {
    const writer = await tableWriter(format, createWriteStream(file), 'Cases');
    await writer.row(HEADER);
    for (let i = 1; i <= ROWS; i++) await writer.row(row(i));
    await writer.end();
  } else {
    const rows = Array.from({ length: ROWS }, (_, i) => row(i + 1));
    const bytes = await tableBytes(format, HEADER, rows, 'Cases');
    createWriteStream(file).end(bytes);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ seconds, peakMiB: process.resourceUsage().maxRSS / 1024 }));
}

if (process.argv[2] === 'child') {
  await runOne(process.argv[3] as 'stream' | 'buffer', process.argv[4] as TableFormat, process.argv[5] as string);
} else {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'table-export-'));
  const self = fileURLToPath(import.meta.url);
  console.log(`\nwriting ${ROWS.toLocaleString('en')} rows of ${HEADER.length} columns, Node ${process.version}, load average ${os.loadavg()[0]?.toFixed(1)}\n`);
  console.log('| mode | format | seconds | peak RSS MiB | file MiB |\n|---|---|---|---|---|');
  try {
    for (const mode of ['stream', 'buffer'] as const) {
      for (const format of ['csv', 'xlsx'] as const) {
        const file = path.join(dir, `out-${mode}.${format}`);
        const child = spawnSync(process.execPath, ['--import', 'tsx', self, 'child', mode, format, file], { encoding: 'utf8' });
        if (child.status !== 0) throw new Error(child.stderr);
        const r = JSON.parse(child.stdout.trim().split('\n').pop() as string) as { seconds: number; peakMiB: number };
        console.log(`| ${mode} | ${format} | ${r.seconds.toFixed(1)} | ${Math.round(r.peakMiB)} | ${(statSync(file).size / 1048576).toFixed(1)} |`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

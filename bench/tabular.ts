/**
 * The import's spreadsheet reader (server/lib/tabular.ts, issue 17): a CSV
 * and an Excel workbook of ROWS rows of ten columns (applicants, as the
 * import dialog receives them), and a CSV of BIG_ROWS rows (about 100 MB),
 * each opened and read to the end in a process of its own, so that its peak
 * resident memory is the reader's and not the generator's.
 * Measured: rows per second (the first pass over the encoding and the header
 * included), peak RSS, and the longest the event loop was held.
 * Targets (issue 17): a 100 MB CSV read with RSS well under 300 MiB; no
 * stretch of more than a few tens of ms without other requests served.
 * Run: node --import tsx bench/tabular.ts   (ROWS, default 100,000;
 * BIG_ROWS, default 1,000,000, 0 to skip)
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { openTable } from '../server/lib/tabular.js';

const ROWS = Number(process.env.ROWS ?? 100_000);
const BIG_ROWS = Number(process.env.BIG_ROWS ?? 1_000_000);
const HEADER = ['ref', 'firstName', 'lastName', 'documentNumber', 'email', 'phone', 'city', 'birthDate', 'rent', 'notes'];

function applicant(i: number): Array<string | number | Date> {
  return [
    `R-${i}`, `Nombre${i}`, `Núñez ${i}`, String(10_000_000 + i), `p${i}@example.org`, '+57 300 123 4567', 'Bogotá, D.C.',
    new Date(Date.UTC(1950 + (i % 50), i % 12, 1 + (i % 28))), 500 + (i % 900) + 0.5, i % 10 === 0 ? 'dice "hola",\nsegunda línea' : 'sin notas',
  ];
}

const csvCell = (v: string | number | Date) => {
  const text = v instanceof Date ? v.toISOString().slice(0, 10) : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

async function writeCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write(`\uFEFF${HEADER.join(',')}\r\n`);
  for (let i = 1; i <= rows; i++) {
    if (!out.write(`${applicant(i).map(csvCell).join(',')}\r\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
}

async function writeXlsx(file: string, rows: number): Promise<void> {
  // Shared strings, as Excel writes them.
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: true });
  const ws = wb.addWorksheet('Solicitantes');
  ws.addRow(HEADER).commit();
  for (let i = 1; i <= rows; i++) ws.addRow(applicant(i)).commit();
  ws.commit();
  await wb.commit();
}

/** In the child: read the file to the end, then print one JSON line. */
async function readOne(file: string) {
  const started = performance.now();
  const table = await openTable(file);
  // Watched from the first row on: what comes before is module loading, which a running server has done.
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let rows = 0;
  let cells = 0;
  for await (const row of table.rows()) {
    rows++;
    cells += row.cells.length;
  }
  const seconds = (performance.now() - started) / 1000;
  loop.disable();
  console.log(JSON.stringify({ kind: table.kind, rows, cells, seconds, peakMiB: process.resourceUsage().maxRSS / 1024, loopMaxMs: loop.max / 1e6, loopP99Ms: loop.percentile(99) / 1e6 }));
}

function measure(file: string) {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'read', file], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`reader failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as { kind: string; rows: number; seconds: number; peakMiB: number; loopMaxMs: number; loopP99Ms: number };
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'casebook-bench-tabular-'));
  try {
    const files: Array<[label: string, file: string]> = [];
    const csv = path.join(dir, 'applicants.csv');
    await writeCsv(csv, ROWS);
    files.push([`CSV, ${ROWS.toLocaleString('en')} rows`, csv]);
    const xlsx = path.join(dir, 'applicants.xlsx');
    await writeXlsx(xlsx, ROWS);
    files.push([`xlsx, ${ROWS.toLocaleString('en')} rows`, xlsx]);
    if (BIG_ROWS > 0) {
      const big = path.join(dir, 'big.csv');
      await writeCsv(big, BIG_ROWS);
      files.push([`CSV, ${BIG_ROWS.toLocaleString('en')} rows`, big]);
    }
    console.log(`\nreading with server/lib/tabular.ts, Node ${process.version}, one process per file, load average ${os.loadavg()[0]?.toFixed(1)}\n`);
    console.log('| file | size | time | rows/s | peak RSS | event-loop delay p99 / max |\n|---|---|---|---|---|---|');
    for (const [label, file] of files) {
      const r = measure(file);
      const mb = statSync(file).size / 1024 / 1024;
      console.log(`| ${label} | ${mb.toFixed(1)} MiB | ${r.seconds.toFixed(2)} s | ${Math.round(r.rows / r.seconds).toLocaleString('en')} | ${r.peakMiB.toFixed(0)} MiB | ${r.loopP99Ms.toFixed(0)} / ${r.loopMaxMs.toFixed(0)} ms |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'read') await readOne(process.argv[3] as string);
else await main();

/**
 * A batch's direct deposits as a NACHA (ACH) file, built with nach2 (nACH):
 * one PPD batch of credits from the tenant's ACH origin, one entry per
 * payment, entries of one payee together. `readNacha` reads a file back
 * (record types 1, 5, 6, 8, 9, fixed width) so that every file we keep is
 * checked before it is stored: the entry count and the total credit must be
 * what we meant to pay. nach2 0.5.1 has no parser of its own
 * (docs/decisions.md).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// nach2 is CommonJS without types.
const nach = require('nach2') as {
  File: new (o: Record<string, unknown>) => { addBatch(b: unknown): void; generateFile(cb: (s: string) => void): void };
  Batch: new (o: Record<string, unknown>) => { addEntry(e: unknown): void };
  Entry: new (o: Record<string, unknown>) => unknown;
};

export interface AchOrigin {
  originatorName: string;
  companyId: string;
  odfiRouting: string;
  immediateDestination: string;
  immediateDestinationName: string;
  immediateOrigin: string;
  immediateOriginName: string;
  entryDescription: string;
}

export interface AchCredit {
  name: string;
  routingNumber: string;
  accountNumber: string;
  accountType: 'checking' | 'savings';
  /** Cents. */
  amount: number;
  /** What the receiver's bank shows as the payer's reference (15 characters). */
  idNumber: string;
  traceNumber: string;
}

/** Upper-case ASCII that NACHA's alphanumeric fields take. */
export function achText(text: string, width: number): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^0-9A-Za-z ,.\-/&'()#]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase()
    .slice(0, width);
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The trace number of the n-th entry (1-based): the ODFI's first eight digits and a seven-digit sequence. */
export const traceNumberOf = (odfiRouting: string, n: number) => `${odfiRouting.slice(0, 8)}${String(n).padStart(7, '0')}`;

/** The file's text (CRLF lines, padded to a multiple of ten records). `createdAt` is the file creation date and time (UTC). */
export async function buildNacha(origin: AchOrigin, payDate: string, batchNumber: number, credits: AchCredit[], createdAt: Date): Promise<string> {
  const file = new nach.File({
    immediateDestination: origin.immediateDestination,
    immediateOrigin: origin.immediateOrigin,
    immediateDestinationName: achText(origin.immediateDestinationName, 23),
    immediateOriginName: achText(origin.immediateOriginName, 23),
    referenceCode: achText(`B${batchNumber}`, 8),
    fileCreationDate: `${pad2(createdAt.getUTCFullYear() % 100)}${pad2(createdAt.getUTCMonth() + 1)}${pad2(createdAt.getUTCDate())}`,
    fileCreationTime: `${pad2(createdAt.getUTCHours())}${pad2(createdAt.getUTCMinutes())}`,
    fileIdModifier: 'A',
  });
  const [y, m, d] = payDate.split('-').map(Number);
  const batch = new nach.Batch({
    serviceClassCode: '220',
    companyName: achText(origin.originatorName, 16),
    standardEntryClassCode: 'PPD',
    companyIdentification: achText(origin.companyId, 10),
    companyEntryDescription: achText(origin.entryDescription, 10),
    companyDescriptiveDate: `${pad2(y % 100)}${pad2(m)}${pad2(d)}`,
    // nach2 formats this Date with local getters: local midnight of the pay day.
    effectiveEntryDate: new Date(y, m - 1, d),
    originatingDFI: origin.odfiRouting,
  });
  for (const c of credits) {
    batch.addEntry(
      new nach.Entry({
        receivingDFI: c.routingNumber,
        DFIAccount: c.accountNumber,
        // nach2 takes dollars; cents as a two-decimal string keeps it exact.
        amount: (c.amount / 100).toFixed(2),
        idNumber: achText(c.idNumber, 15),
        individualName: achText(c.name, 22),
        discretionaryData: '  ',
        transactionCode: c.accountType === 'savings' ? '32' : '22',
        traceNumber: c.traceNumber,
      }),
    );
  }
  file.addBatch(batch);
  return new Promise<string>((resolve) => file.generateFile(resolve));
}

export interface NachaSummary {
  batches: number;
  entries: Array<{ transactionCode: string; routingNumber: string; account: string; amount: number; name: string; traceNumber: string }>;
  /** From the file control record (type 9), in cents. */
  totalCredit: number;
  totalDebit: number;
  entryCount: number;
}

/** Reads a NACHA file's records (94 characters each) back; throws on a record of the wrong length or type. */
export function readNacha(text: string): NachaSummary {
  const lines = text.split(/\r?\n/).filter((l) => l.length > 0);
  const summary: NachaSummary = { batches: 0, entries: [], totalCredit: 0, totalDebit: 0, entryCount: 0 };
  let control = false;
  for (const line of lines) {
    if (line.length !== 94) throw new Error(`NACHA record of ${line.length} characters`);
    const type = line[0];
    if (type === '1' || (type === '9' && control && /^9+$/.test(line))) continue;
    if (type === '5') summary.batches++;
    else if (type === '6')
      summary.entries.push({
        transactionCode: line.slice(1, 3),
        routingNumber: line.slice(3, 12),
        account: line.slice(12, 29).trim(),
        amount: Number(line.slice(29, 39)),
        name: line.slice(54, 76).trim(),
        traceNumber: line.slice(79, 94),
      });
    else if (type === '8' || type === '7') continue;
    else if (type === '9') {
      control = true;
      summary.entryCount = Number(line.slice(13, 21));
      summary.totalDebit = Number(line.slice(31, 43));
      summary.totalCredit = Number(line.slice(43, 55));
    } else throw new Error(`NACHA record of type ${type}`);
  }
  return summary;
}

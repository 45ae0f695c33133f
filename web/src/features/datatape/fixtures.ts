/** Answers of the data tape API for the web tests, shaped by core/api/datatape.ts. */
import type { AvailableColumn, TapeConfig, TapeExport, TapeProtocol } from './api.js';

export const protocols: TapeProtocol[] = [
  { id: 1, code: 'rental', name: 'Rental assistance', saved: true },
  { id: 2, code: 'repairs', name: 'Home repairs', saved: false },
];

const column = (source: string, header: string, header_en: string, extra: Partial<AvailableColumn> = {}): AvailableColumn => ({
  source,
  header,
  header_en,
  kind: source.startsWith('case:') ? 'case' : 'field',
  type: source.startsWith('case:') ? null : 'text',
  repeat: null,
  ...extra,
});

/** What the rental form offers: two case columns, two fields, and a repeat group's field. */
export const available: AvailableColumn[] = [
  column('case:number', 'Número', 'Number'),
  column('case:state', 'Estado', 'State'),
  column('field:firstName', 'Nombres', 'First name'),
  column('field:rent', 'Renta', 'Rent', { type: 'currency' }),
  column('field:members.name', 'Integrantes – Nombre', 'Members – Name', { repeat: 'members' }),
];

/** The rental tape as saved by Ana Lead: number, state, the members' names. */
export const rentalConfig: TapeConfig = {
  protocolId: 1,
  protocolName: 'Rental assistance',
  columns: [
    { source: 'case:number', header: 'Número', header_en: 'Number' },
    { source: 'case:state', header: 'Estado', header_en: 'State' },
    { source: 'field:members.name', header: 'Integrante', header_en: 'Member' },
  ],
  available,
  saved: true,
  updatedAt: '2026-11-20T15:30:00.000Z',
  updatedBy: 'Ana Lead',
};

/** The same tape put back to the default: every available column. */
export const defaultConfig: TapeConfig = {
  ...rentalConfig,
  columns: available.map(({ source, header, header_en }) => ({ source, header, header_en })),
  saved: false,
  updatedAt: null,
  updatedBy: null,
};

export function tapeExport(overrides: Partial<TapeExport> = {}): TapeExport {
  return {
    id: 'x1AbCdEfGhIjKlMnOp',
    protocolId: 1,
    protocolName: 'Rental assistance',
    format: 'csv',
    headers: 'en',
    state: 'done',
    done: 120,
    total: 120,
    columns: 7,
    filename: 'data-tape-rental-2026-11-20.csv',
    bytes: 2_621_440,
    error: null,
    createdAt: '2026-11-20T16:00:00.000Z',
    updatedAt: '2026-11-20T16:00:05.000Z',
    ...overrides,
  };
}

import type { PublicPage } from '../../../../../core/api/protocols.js';
import type { ProtocolDefinition } from '../../../../../core/workflow/protocol.js';
import type { CaseType, ProtocolBody, ProtocolDetail } from '../api.js';
import { emptyDefinition, normalizeDefinition } from './draft.js';

/** The protocol as the editor holds it while it changes. */
export interface Draft {
  code: string;
  name: string;
  /** The English name ('' for none: readers in English see `name`). */
  nameEn: string;
  description: string;
  caseType: CaseType;
  public: boolean;
  mainFormId: number | null;
  /** Its public page's texts in both languages (`/publico/{entity}/{code}`). */
  publicPage: PublicPage;
  definition: ProtocolDefinition;
}

export const emptyPublicPage = (): PublicPage => ({ titleEn: '', titleEs: '', descriptionEn: '', descriptionEs: '', eligibilityEn: '', eligibilityEs: '' });

export const newDraft = (): Draft => ({
  code: '',
  name: '',
  nameEn: '',
  description: '',
  caseType: 'RADICACION_INTERNA',
  public: false,
  mainFormId: null,
  publicPage: emptyPublicPage(),
  definition: emptyDefinition(),
});

export const fromDetail = (detail: ProtocolDetail): Draft => ({
  code: detail.code,
  name: detail.name,
  nameEn: detail.nameEn ?? '',
  description: detail.description,
  caseType: detail.caseType,
  public: detail.public,
  mainFormId: detail.mainFormId,
  publicPage: { ...emptyPublicPage(), ...detail.publicPage },
  definition: normalizeDefinition(detail.definition),
});

/** What Save and Publish send: the draft with its texts trimmed. */
export const toBody = (d: Draft): ProtocolBody => ({
  code: d.code.trim(),
  name: d.name.trim(),
  nameEn: d.nameEn.trim(),
  description: d.description.trim(),
  caseType: d.caseType,
  public: d.public,
  mainFormId: d.mainFormId as number,
  publicPage: Object.fromEntries(Object.entries(d.publicPage).map(([key, text]) => [key, text.trim()])) as PublicPage,
  definition: d.definition,
});

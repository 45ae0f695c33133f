import { useCase } from '../cases/api.js';
import { CorrectionNotice } from '../cases/case/CorrectionNotice.js';

/**
 * A task whose application is back with its applicant for correction says
 * so, as the case page does (reason, what was asked, when and by whom): the
 * reviewer knows that the data may still change. Withdrawing the request is
 * done on the case page. Nothing shows when the case has no open request or
 * the reader may not open the case.
 */
export function TaskCorrection({ caseId }: { caseId: number }) {
  const query = useCase(String(caseId));
  const c = query.data;
  if (!c?.correction) return null;
  return <CorrectionNotice caseId={c.id} correction={c.correction} form={c.form} mayResubmit={false} />;
}

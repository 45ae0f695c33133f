/**
 * What bpmn-export.ts and bpmn-import.ts share: the `casebook:` moddle
 * extension (what BPMN has no place for: a task's form, who does it, its
 * deadline and where a rejection goes; the protocol's main-form settings),
 * declared so that bpmn-moddle writes it and reads it back without a
 * warning, and typed accessors for the untyped moddle elements.
 *
 *   <bpmn:userTask id="intake" name="Revisión de ingreso">
 *     <bpmn:extensionElements>
 *       <casebook:task nameEn="Intake review" form="intake-review" responsible="team" team="Intake" expirationDays="2" rejectEnds="true" />
 *     </bpmn:extensionElements>
 *   </bpmn:userTask>
 *
 * Forms are named by code, teams by name and users by email (ids differ
 * between tenants), as in the JSON export.
 */
import { BpmnModdle, type ModdleElement } from 'bpmn-moddle';

export const CASEBOOK_NS = 'urn:casebook:bpmn:1';
/** The `language` of a condition written in Casebook's own syntax (core/forms/expr.ts). */
export const CONDITION_LANGUAGE = 'urn:casebook:condition';

const attr = (name: string, type = 'String') => ({ name, isAttr: true, type });

const casebookPackage = {
  name: 'Casebook',
  uri: CASEBOOK_NS,
  prefix: 'casebook',
  xml: { tagAlias: 'lowerCase' },
  associations: [],
  enumerations: [],
  types: [
    {
      name: 'Task',
      superClass: ['Element'],
      properties: [
        attr('nameEn'),
        attr('form'),
        /** team, user, owner (who opened the case) or task (the responsible of an earlier task). */
        attr('responsible'),
        attr('team'),
        attr('user'),
        attr('task'),
        attr('expirationDays', 'Integer'),
        attr('expirationUnit'),
        /** A rejection goes back to this task's code ... */
        attr('rejectTo'),
        /** ... or ends the case as not eligible. */
        attr('rejectEnds', 'Boolean'),
        attr('escalationRole'),
        attr('escalationAfterDays', 'Integer'),
        /** Issue 23: the task sets the case's award; the task waits for the party of this role. */
        attr('award', 'Boolean'),
        attr('waitsForParty'),
      ],
    },
    {
      name: 'Protocol',
      superClass: ['Element'],
      properties: [
        attr('duplicateFields'), attr('requiredDocumentsField'), attr('requireIncome'), attr('section8'), attr('thirdParty'),
        // Issue 23: the award caps, in cents (absent: the protocol gives no award).
        attr('awardMaxArrearsMonths', 'Integer'), attr('awardMaxAheadMonths', 'Integer'), attr('awardMaxMonthlyRent', 'Integer'),
        attr('awardMaxUtilities', 'Integer'), attr('awardMaxTotal', 'Integer'),
      ],
    },
  ],
};

/** A bpmn-moddle that knows the casebook: extension. One per conversion: moddle instances keep ids they saw. */
export const newModdle = () => new BpmnModdle({ casebook: casebookPackage });

// ---------------------------------------------------------------- reading untyped moddle elements

export type Element = ModdleElement;

export const str = (e: Element | undefined, key: string): string | undefined => {
  const v = e?.[key];
  return typeof v === 'string' ? v : undefined;
};
export const num = (e: Element | undefined, key: string): number | undefined => {
  const v = e?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
};
export const list = (e: Element | undefined, key: string): Element[] => {
  const v = e?.[key];
  return Array.isArray(v) ? (v as Element[]) : [];
};
export const ref = (e: Element | undefined, key: string): Element | undefined => {
  const v = e?.[key];
  return v && typeof v === 'object' && typeof (v as Element).$type === 'string' ? (v as Element) : undefined;
};

/** The element's `casebook:` extension of this type, if it has one. */
export function extensionOf(e: Element | undefined, type: 'casebook:Task' | 'casebook:Protocol'): Element | undefined {
  return list(ref(e, 'extensionElements'), 'values').find((v) => v.$type === type);
}

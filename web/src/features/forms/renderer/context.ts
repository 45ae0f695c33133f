import { createContext, useContext } from 'react';
import type { Control, FieldValues } from 'react-hook-form';
import type { FieldDef } from '../../../../../core/forms/definition.js';
import type { FileRef, ValidatorContext } from '../../../../../core/forms/validator.js';
import type { FieldOption } from '../api.js';

/** Where a master select or an external list gets its options; `parent` is the value of the field its type_aux names. */
export type OptionsLoader = (field: FieldDef, parent: string | undefined, signal?: AbortSignal) => Promise<FieldOption[]>;

/** A repeat group's row that was typed but not added: the form asks before moving on. */
export interface PendingRow {
  /** The group's label, for the warning. */
  group: string;
  editing: boolean;
  discard: () => void;
}

export interface RendererContextValue {
  role?: string;
  readOnly: boolean;
  columns: boolean;
  /** Part of every options query key: options of one form never mix with another's. */
  optionsKey: string;
  loadOptions: OptionsLoader;
  /** Master and external options seen so far: the validator accepts their values, a summary shows their labels. */
  reportOptions: (field: string, options: ReadonlyArray<{ value: string; label: string }>) => void;
  upload: (file: File, onProgress: (fraction: number) => void) => Promise<FileRef>;
  activeStep: (stepper: string) => number;
  setActiveStep: (stepper: string, index: number) => void;
  /** Moves a stepper from one of its (visible) steps to another; going forward, the steps left behind must be valid. */
  goToStep: (stepper: FieldDef, steps: FieldDef[], from: number, to: number) => Promise<void>;
  /** The whole form's values (a row's conditions and validation see them). */
  getRootValues: () => Record<string, unknown>;
  /** What the shared validator needs besides the definition: role, option values, translation. */
  validatorContext: (values: Record<string, unknown>) => ValidatorContext;
  registerPending: (id: string, pending: PendingRow | null) => void;
  /** Resolves true when nothing typed is pending or the user chose to continue without it. */
  confirmPending: () => Promise<boolean>;
}

export const RendererContext = createContext<RendererContextValue | null>(null);

export function useRenderer(): RendererContextValue {
  const value = useContext(RendererContext);
  if (!value) throw new Error('form widgets need a FormRenderer above them');
  return value;
}

/**
 * One scope of values: the whole form, or the row being edited in a repeat
 * group's dialog (a react-hook-form of its own). Names resolve in the row
 * first, then in the form, as in the shared validator.
 */
export interface ScopeValue {
  control: Control<FieldValues>;
  /** The value fields of this scope by name. */
  fields: ReadonlyMap<string, FieldDef>;
  parent: ScopeValue | null;
}

export const ScopeContext = createContext<ScopeValue | null>(null);

export function useScope(): ScopeValue {
  const value = useContext(ScopeContext);
  if (!value) throw new Error('form widgets need a scope');
  return value;
}

/** The scope that holds `name`: the nearest one that declares it, else the form's. */
export function scopeOf(scope: ScopeValue, name: string): ScopeValue {
  let node: ScopeValue | null = scope;
  while (node) {
    if (node.fields.has(name) || !node.parent) return node;
    node = node.parent;
  }
  return scope;
}

/** The definition of the field `name` as the scope resolves it. */
export function fieldInScope(scope: ScopeValue, name: string): FieldDef | undefined {
  return scopeOf(scope, name).fields.get(name);
}

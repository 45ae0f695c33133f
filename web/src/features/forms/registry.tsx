/**
 * The field-type registry: one entry per type of core/forms FIELD_TYPES,
 * read by the renderer (how a field shows and fills in) and by the builder
 * (its name in the type picker, its icon, the field a new one starts as,
 * and the properties its editor shows, each with one of a few property
 * editors). Validation is not here: core/forms/validator.ts is the one
 * validator, in the browser and on the server.
 */
import AlternateEmail from '@mui/icons-material/AlternateEmail';
import ArrowDropDownCircle from '@mui/icons-material/ArrowDropDownCircle';
import AttachFile from '@mui/icons-material/AttachFile';
import AttachMoney from '@mui/icons-material/AttachMoney';
import CalendarToday from '@mui/icons-material/CalendarToday';
import CheckBox from '@mui/icons-material/CheckBox';
import Checklist from '@mui/icons-material/Checklist';
import Filter1 from '@mui/icons-material/Filter1';
import Group from '@mui/icons-material/Group';
import LinearScale from '@mui/icons-material/LinearScale';
import ListAlt from '@mui/icons-material/ListAlt';
import LocalPostOffice from '@mui/icons-material/LocalPostOffice';
import Notes from '@mui/icons-material/Notes';
import Numbers from '@mui/icons-material/Numbers';
import Phone from '@mui/icons-material/Phone';
import Public from '@mui/icons-material/Public';
import RadioButtonChecked from '@mui/icons-material/RadioButtonChecked';
import Schedule from '@mui/icons-material/Schedule';
import Subject from '@mui/icons-material/Subject';
import TableRows from '@mui/icons-material/TableRows';
import TextFields from '@mui/icons-material/TextFields';
import ToggleOn from '@mui/icons-material/ToggleOn';
import type SvgIcon from '@mui/material/SvgIcon';
import type { ComponentType } from 'react';
import type { FieldDef, FieldType } from '../../../../core/forms/definition.js';
import { CheckboxWidget, MultiCheckboxWidget, RadioWidget, SelectWidget, SwitchWidget } from './renderer/widgets/ChoiceWidgets.js';
import { FileWidget } from './renderer/widgets/FileWidget.js';
import { PartyWidget } from './renderer/widgets/PartyWidget.js';
import { ExternalMultiSelectWidget, MasterSelectWidget } from './renderer/widgets/OptionWidgets.js';
import { RepeatWidget } from './renderer/widgets/RepeatWidget.js';
import { StaticWidget } from './renderer/widgets/StaticWidget.js';
import { StepperWidget, StepWidget } from './renderer/widgets/StepperWidget.js';
import {
  CurrencyWidget,
  DateTimeWidget,
  DateWidget,
  EmailWidget,
  NumberWidget,
  PhoneWidget,
  TextareaWidget,
  TextWidget,
  ZipWidget,
} from './renderer/widgets/TextWidgets.js';

/** What every renderer receives: its definition and its name in the current scope (the form, or a row). */
export interface FieldRendererProps {
  field: FieldDef;
  name: string;
}

/** The few property editors of the builder (builder/propertyEditors.tsx draws each). */
export const PROPERTY_EDITOR_KINDS = ['text', 'multiline', 'number', 'boolean', 'options', 'master', 'parentField', 'extensions', 'condition', 'partyRole'] as const;
export type PropertyEditorKind = (typeof PROPERTY_EDITOR_KINDS)[number];

/** One property a field's editor shows. */
export interface PropertySpec {
  key: Exclude<keyof FieldDef, 'type' | 'children'>;
  editor: PropertyEditorKind;
  /** i18n key of its label, under forms.props. */
  labelKey: string;
  /** i18n key of a hint shown under it. */
  helpKey?: string;
  /** Only for fields inside a repeat group (table columns). */
  inRepeatOnly?: boolean;
  /** What the editor shows while the property is not set (the meaning of leaving it out). */
  fallback?: unknown;
}

export type TypeGroup = 'text' | 'choice' | 'other' | 'layout';

export interface FieldTypeSpec {
  type: FieldType;
  /** i18n key of the type's name. */
  labelKey: string;
  icon: typeof SvgIcon;
  group: TypeGroup;
  /** A new field of this type, before it gets a name and labels. */
  create: () => Partial<FieldDef>;
  properties: readonly PropertySpec[];
  Renderer: ComponentType<FieldRendererProps>;
  /** Takes the whole row of a two-column layout. */
  fullWidth?: boolean;
  /** For containers: the types a child may have. */
  accepts?: (child: FieldType) => boolean;
}

const prop = (key: PropertySpec['key'], editor: PropertyEditorKind, extra: Partial<PropertySpec> = {}): PropertySpec => ({
  key,
  editor,
  labelKey: `forms.props.${key}`,
  ...extra,
});

const NAME = prop('name', 'text', { helpKey: 'forms.props.nameHelp' });
const LABELS = [prop('label_en', 'text'), prop('label', 'text'), prop('label_report', 'text')];
const HELP = [prop('help_en', 'multiline'), prop('help', 'multiline')];
const REQUIRED = prop('required', 'boolean');
const VISIBLE = prop('visibleWhen', 'condition', { helpKey: 'forms.props.visibleWhenHelp' });
const COLUMN = [prop('headers', 'boolean', { inRepeatOnly: true, helpKey: 'forms.props.headersHelp', fallback: true }), prop('showWhenTable', 'condition', { inRepeatOnly: true, helpKey: 'forms.props.showWhenTableHelp' })];
/** What every field that holds a value shows, around the properties of its type. */
const valueField = (...own: PropertySpec[]): PropertySpec[] => [NAME, ...LABELS, ...HELP, REQUIRED, ...own, VISIBLE, ...COLUMN];
const TEXT_PROPS = [prop('minLength', 'number'), prop('maxLength', 'number'), prop('pattern', 'text', { helpKey: 'forms.props.patternHelp' })];
const NUMBER_PROPS = [prop('min', 'number'), prop('max', 'number'), prop('default', 'number')];
const OPTIONS = prop('options', 'options');

const sampleOptions = () => [
  { value: 'option1', label: 'Opción 1', label_en: 'Option 1' },
  { value: 'option2', label: 'Opción 2', label_en: 'Option 2' },
];
const notLayout = (child: FieldType) => child !== 'stepper' && child !== 'step';

export const FIELD_REGISTRY: Record<FieldType, FieldTypeSpec> = {
  text: { type: 'text', labelKey: 'forms.types.text', icon: TextFields, group: 'text', create: () => ({}), properties: valueField(...TEXT_PROPS, prop('default', 'text')), Renderer: TextWidget },
  textarea: {
    type: 'textarea', labelKey: 'forms.types.textarea', icon: Notes, group: 'text', create: () => ({ maxLength: 2000 }),
    properties: valueField(...TEXT_PROPS, prop('default', 'multiline')), Renderer: TextareaWidget, fullWidth: true,
  },
  number: { type: 'number', labelKey: 'forms.types.number', icon: Numbers, group: 'text', create: () => ({}), properties: valueField(...NUMBER_PROPS), Renderer: NumberWidget },
  currency: { type: 'currency', labelKey: 'forms.types.currency', icon: AttachMoney, group: 'text', create: () => ({ min: 0 }), properties: valueField(...NUMBER_PROPS), Renderer: CurrencyWidget },
  email: { type: 'email', labelKey: 'forms.types.email', icon: AlternateEmail, group: 'text', create: () => ({}), properties: valueField(), Renderer: EmailWidget },
  phone: { type: 'phone', labelKey: 'forms.types.phone', icon: Phone, group: 'text', create: () => ({}), properties: valueField(), Renderer: PhoneWidget },
  zip: { type: 'zip', labelKey: 'forms.types.zip', icon: LocalPostOffice, group: 'text', create: () => ({}), properties: valueField(), Renderer: ZipWidget },
  date: { type: 'date', labelKey: 'forms.types.date', icon: CalendarToday, group: 'text', create: () => ({}), properties: valueField(), Renderer: DateWidget },
  datetime: { type: 'datetime', labelKey: 'forms.types.datetime', icon: Schedule, group: 'text', create: () => ({}), properties: valueField(), Renderer: DateTimeWidget },
  select: { type: 'select', labelKey: 'forms.types.select', icon: ArrowDropDownCircle, group: 'choice', create: () => ({ options: sampleOptions() }), properties: valueField(OPTIONS), Renderer: SelectWidget },
  select_multiple: {
    type: 'select_multiple', labelKey: 'forms.types.select_multiple', icon: Checklist, group: 'choice', create: () => ({ options: sampleOptions() }),
    properties: valueField(OPTIONS), Renderer: MultiCheckboxWidget,
  },
  radio: { type: 'radio', labelKey: 'forms.types.radio', icon: RadioButtonChecked, group: 'choice', create: () => ({ options: sampleOptions() }), properties: valueField(OPTIONS), Renderer: RadioWidget },
  checkbox: { type: 'checkbox', labelKey: 'forms.types.checkbox', icon: CheckBox, group: 'choice', create: () => ({}), properties: valueField(), Renderer: CheckboxWidget },
  switch: { type: 'switch', labelKey: 'forms.types.switch', icon: ToggleOn, group: 'choice', create: () => ({}), properties: valueField(), Renderer: SwitchWidget },
  master_select: {
    type: 'master_select', labelKey: 'forms.types.master_select', icon: ListAlt, group: 'choice', create: () => ({ master: '' }),
    properties: valueField(prop('master', 'master'), prop('type_aux', 'parentField', { helpKey: 'forms.props.type_auxHelp' })), Renderer: MasterSelectWidget,
  },
  select_multiple_external: {
    type: 'select_multiple_external', labelKey: 'forms.types.select_multiple_external', icon: Public, group: 'choice', create: () => ({ external_url: '' }),
    properties: valueField(prop('external_url', 'text', { helpKey: 'forms.props.external_urlHelp' })), Renderer: ExternalMultiSelectWidget,
  },
  file: {
    type: 'file', labelKey: 'forms.types.file', icon: AttachFile, group: 'other', create: () => ({ accept: ['pdf'], maxSizeMb: 10 }),
    properties: valueField(prop('accept', 'extensions', { helpKey: 'forms.props.acceptHelp' }), prop('maxSizeMb', 'number')), Renderer: FileWidget, fullWidth: true,
  },
  repeat: {
    type: 'repeat', labelKey: 'forms.types.repeat', icon: TableRows, group: 'layout', create: () => ({ children: [] }),
    properties: [NAME, ...LABELS, ...HELP, REQUIRED, prop('minRows', 'number'), prop('maxRows', 'number'), VISIBLE],
    Renderer: RepeatWidget, fullWidth: true, accepts: notLayout,
  },
  stepper: {
    type: 'stepper', labelKey: 'forms.types.stepper', icon: LinearScale, group: 'layout', create: () => ({ children: [] }),
    properties: [NAME, ...LABELS], Renderer: StepperWidget, fullWidth: true, accepts: (child) => child === 'step',
  },
  step: {
    type: 'step', labelKey: 'forms.types.step', icon: Filter1, group: 'layout', create: () => ({ children: [] }),
    properties: [NAME, ...LABELS, VISIBLE], Renderer: StepWidget, fullWidth: true, accepts: notLayout,
  },
  party: {
    type: 'party', labelKey: 'forms.types.party', icon: Group, group: 'other', create: () => ({ partyRole: 'landlord' }),
    properties: valueField(prop('partyRole', 'partyRole', { helpKey: 'forms.props.partyRoleHelp' })), Renderer: PartyWidget, fullWidth: true,
  },
  static: {
    type: 'static', labelKey: 'forms.types.static', icon: Subject, group: 'other', create: () => ({}),
    properties: [NAME, prop('label_en', 'multiline'), prop('label', 'multiline'), ...HELP, VISIBLE], Renderer: StaticWidget, fullWidth: true,
  },
};

/** The types that may go at the top of a form, or inside a container of `parent` type. */
export function typesAllowedIn(parent: FieldType | null): FieldType[] {
  const all = Object.keys(FIELD_REGISTRY) as FieldType[];
  if (parent === null) return all.filter((type) => type !== 'step');
  const accepts = FIELD_REGISTRY[parent].accepts;
  return accepts ? all.filter(accepts) : [];
}

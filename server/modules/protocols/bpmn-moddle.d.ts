/**
 * The part of bpmn-moddle (ESM, no type declarations of its main export)
 * that bpmn-export.ts and bpmn-import.ts use. Elements are read through the
 * accessors of bpmn-casebook.ts, never trusted to have a shape.
 */
declare module 'bpmn-moddle' {
  export interface ModdleElement {
    readonly $type: string;
    $attrs: Record<string, string>;
    $instanceOf(type: string): boolean;
    [property: string]: unknown;
  }

  export interface ModdleWarning {
    message: string;
    element?: unknown;
  }

  export class BpmnModdle {
    constructor(packages?: Record<string, unknown>, options?: Record<string, unknown>);
    fromXML(xml: string, typeName?: string): Promise<{ rootElement: ModdleElement; warnings: ModdleWarning[]; elementsById: Record<string, ModdleElement> }>;
    toXML(element: ModdleElement, options?: { format?: boolean; preamble?: boolean }): Promise<{ xml: string }>;
    create(type: string, attrs?: Record<string, unknown>): ModdleElement;
  }
}

import { BpmnModdle } from 'bpmn-moddle';
import { describe, expect, it } from 'vitest';
import { BPMN_MAX_BYTES } from '../../../core/api/protocolBpmn.js';
import { parseProtocolDefinition, type ProtocolDefinition } from '../../../core/workflow/protocol.js';
import { type Element, list, newModdle, ref, str } from './bpmn-casebook.js';
import { layoutGraph, protocolGraph, protocolToBpmn } from './bpmn-export.js';
import { BpmnFileError, convertBpmn, readBpmnFile, readUpload } from './bpmn-import.js';

/**
 * The BPMN conversions without a database: a protocol shaped like the demo's
 * rental assistance (a parallel split, a join, conditions) to XML and back,
 * what a file is refused for before it is parsed, and how a hand-written
 * Camunda-style file (timers, a service task, a boundary event, JUEL
 * conditions, candidate groups) is read.
 */
const rental: ProtocolDefinition = parseProtocolDefinition({
  start: ['intake'],
  duplicateFields: ['documentType', 'documentNumber'],
  pendingColumns: { requireIncome: ['noincome_require_zipcode'], section8: 'housing_assistance', thirdParty: 'working_third_party' },
  awardCaps: { maxArrearsMonths: 12, maxAheadMonths: 3, maxMonthlyRent: 3_000_00, maxUtilities: 1_000_00, maxTotal: 25_000_00 },
  parties: [{ role: 'landlord' }],
  tasks: [
    { code: 'intake', name: 'Revisión de ingreso', name_en: 'Intake review', formId: 1, responsible: { kind: 'team', teamId: 1 }, expirationDays: 2, onAccept: [{ to: 'documents' }], onReject: { notEligible: true } },
    { code: 'documents', name: 'Verificación de documentos', formId: 2, responsible: { kind: 'team', teamId: 2 }, expirationDays: 3, expirationUnit: 'business', onAccept: [{ to: 'eligibility' }, { to: 'landlord' }], onReject: { to: 'intake' } },
    { code: 'eligibility', name: 'Elegibilidad', formId: 3, responsible: { kind: 'user', userId: 7 }, expirationDays: 3, onAccept: [{ to: 'payment', when: "eligible == 'yes'" }], onReject: { notEligible: true } },
    { code: 'landlord', name: 'Verificación del arrendador', formId: 4, responsible: { kind: 'task', task: 'intake' }, expirationDays: 5, waitsForParty: 'landlord', onAccept: [{ to: 'payment' }], onReject: { to: 'intake' } },
    {
      code: 'payment', name: 'Aprobación del pago', formId: 5, responsible: { kind: 'team', teamId: 3 }, expirationDays: 2, join: 'all', escalation: { role: 'coordinator', afterDays: 2 }, award: true,
      onAccept: [{ to: 'supervisor', when: 'amount > 5000' }, { to: 'notify', when: 'amount <= 5000' }], onReject: { to: 'eligibility' },
    },
    { code: 'supervisor', name: 'Aprobación del supervisor', responsible: { kind: 'owner' }, expirationDays: 1, onAccept: [{ to: 'notify' }], onReject: { to: 'payment' } },
    { code: 'notify', name: 'Notificar', responsible: { kind: 'team', teamId: 3 }, expirationDays: 1 },
  ],
});
const names = {
  formCode: (id: number) => ['intake-review', 'document-verification', 'eligibility', 'landlord-verification', 'payment-approval'][id - 1],
  teamName: (id: number) => ['Intake', 'Document review', 'Payments'][id - 1],
  userEmail: (id: number) => (id === 7 ? 'reviewer@example.test' : undefined),
};
const bytes = (text: string) => Buffer.from(text, 'utf8');
const flowNodesOf = (process: Element) => list(process, 'flowElements').filter((e) => e.$type !== 'bpmn:SequenceFlow');

describe('export', () => {
  it('writes BPMN that bpmn-moddle reads back without a warning, with a shape for every flow node and an edge for every flow', async () => {
    const xml = await protocolToBpmn(rental, names, { code: 'rental-assistance', name: 'Rental assistance', endName: 'End' });
    for (const moddle of [newModdle(), new BpmnModdle()]) {
      // With our extension, and as a modeler that has never heard of it (bpmn-js's own moddle) reads it.
      const { rootElement, warnings } = await moddle.fromXML(xml, 'bpmn:Definitions');
      expect(warnings).toEqual([]);
      const process = list(rootElement, 'rootElements')[0];
      const plane = ref(list(rootElement, 'diagrams')[0], 'plane');
      const drawn = new Map(list(plane, 'planeElement').map((d) => [str(ref(d, 'bpmnElement'), 'id'), d]));
      for (const e of list(process, 'flowElements')) {
        const di = drawn.get(str(e, 'id'));
        expect(di, str(e, 'id')).toBeDefined();
        if (e.$type === 'bpmn:SequenceFlow') expect(list(di, 'waypoint').length).toBeGreaterThanOrEqual(2);
        else expect(ref(di, 'bounds')).toMatchObject({ width: expect.any(Number), height: expect.any(Number) });
      }
      expect(drawn.size).toBe(list(process, 'flowElements').length);
    }
    const { rootElement } = await newModdle().fromXML(xml, 'bpmn:Definitions');
    const process = list(rootElement, 'rootElements')[0];
    const byId = new Map(list(process, 'flowElements').map((e) => [str(e, 'id'), e]));
    // Every task is a user task with its form, responsible and deadline in the casebook: extension.
    expect(rental.tasks.every((t) => byId.get(t.code)?.$type === 'bpmn:UserTask')).toBe(true);
    const intake = list(ref(byId.get('intake'), 'extensionElements'), 'values')[0];
    expect(intake).toMatchObject({ $type: 'casebook:Task', nameEn: 'Intake review', form: 'intake-review', responsible: 'team', team: 'Intake', expirationDays: 2, rejectEnds: true });
    expect(list(ref(byId.get('eligibility'), 'extensionElements'), 'values')[0]).toMatchObject({ responsible: 'user', user: 'reviewer@example.test' });
    // The parallel split after documents, the join before payment, the exclusive choice after payment with both conditions.
    expect(byId.get('Gateway_split_documents')?.$type).toBe('bpmn:ParallelGateway');
    expect(byId.get('Gateway_join_payment')?.$type).toBe('bpmn:ParallelGateway');
    expect(byId.get('Gateway_choice_payment')?.$type).toBe('bpmn:ExclusiveGateway');
    const conditions = list(process, 'flowElements')
      .filter((e) => ref(e, 'conditionExpression'))
      .map((e) => [str(ref(e, 'sourceRef'), 'id'), str(ref(e, 'targetRef'), 'id'), str(ref(e, 'conditionExpression'), 'body'), str(ref(e, 'conditionExpression'), 'language')]);
    expect(conditions).toEqual([
      ['Gateway_choice_eligibility', 'Gateway_join_payment', "eligible == 'yes'", 'urn:casebook:condition'],
      ['Gateway_choice_payment', 'supervisor', 'amount > 5000', 'urn:casebook:condition'],
      ['Gateway_choice_payment', 'notify', 'amount <= 5000', 'urn:casebook:condition'],
    ]);
    expect(flowNodesOf(process).filter((e) => e.$type === 'bpmn:StartEvent' || e.$type === 'bpmn:EndEvent').map((e) => str(e, 'id'))).toEqual(['StartEvent_1', 'EndEvent_1']);
  });

  it('lays the graph out left to right without two shapes on top of each other', () => {
    const graph = protocolGraph(rental);
    const { shapes } = layoutGraph(graph);
    const boxes = [...shapes.entries()];
    for (const [a, p] of boxes) {
      for (const [b, q] of boxes) {
        if (a >= b) continue;
        const apart = p.x + p.width <= q.x || q.x + q.width <= p.x || p.y + p.height <= q.y || q.y + q.height <= p.y;
        expect(apart, `${a} and ${b}`).toBe(true);
      }
    }
    const x = (id: string) => shapes.get(id)?.x as number;
    expect(x('StartEvent_1')).toBeLessThan(x('intake'));
    expect(x('documents')).toBeLessThan(x('eligibility'));
    expect(x('eligibility')).toBe(x('landlord'));
    expect(x('payment')).toBeLessThan(x('notify'));
    expect(x('notify')).toBeLessThan(x('EndEvent_1'));
  });

  it('reads its own export back as the same protocol', async () => {
    const xml = await protocolToBpmn(rental, names, { code: 'rental-assistance', name: 'Rental assistance' });
    const back = convertBpmn(await readBpmnFile(bytes(xml)));
    expect(back.problems).toEqual([]);
    expect(back.unsupported).toEqual([]);
    expect(back.start).toEqual(rental.start);
    expect(back.settings).toEqual({ duplicateFields: rental.duplicateFields, requiredDocumentsField: null, pendingColumns: rental.pendingColumns, awardCaps: rental.awardCaps });
    const named = rental.tasks.map((t) => ({
      code: t.code,
      name: t.name,
      name_en: t.name_en,
      form: t.formId === null ? null : names.formCode(t.formId),
      responsible:
        t.responsible.kind === 'team' ? { kind: 'team', team: names.teamName(t.responsible.teamId) } : t.responsible.kind === 'user' ? { kind: 'user', email: 'reviewer@example.test' } : t.responsible,
      expirationDays: t.expirationDays,
      expirationUnit: t.expirationUnit,
      escalation: t.escalation,
      ...(t.award && { award: true }),
      ...(t.waitsForParty && { waitsForParty: t.waitsForParty }),
      join: t.join,
      onAccept: t.onAccept,
      onReject: t.onReject,
    }));
    expect(back.tasks.map(({ elementId: _, ...t }) => t)).toEqual(named);
  });
});

describe('reading a file', () => {
  const minimal = (inside: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d" targetNamespace="t">${inside}</bpmn:definitions>`;
  const refusal = async (input: Uint8Array) => {
    try {
      await readBpmnFile(input);
    } catch (e) {
      return e instanceof BpmnFileError ? e.reason : `other: ${String(e)}`;
    }
    return 'read';
  };

  it('refuses a DOCTYPE or an ENTITY anywhere, before parsing (XXE, entity expansion)', async () => {
    const xxe = `<?xml version="1.0"?>\n<!DOCTYPE foo [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n${minimal('<bpmn:process id="p"><bpmn:userTask id="a" name="&xxe;"/></bpmn:process>').replace(/^<\?xml[^>]*>\n/, '')}`;
    expect(await refusal(bytes(xxe))).toBe('doctype');
    expect(await refusal(bytes(minimal('<bpmn:process id="p"><bpmn:documentation><![CDATA[<!ENTITY x "y">]]></bpmn:documentation></bpmn:process>')))).toBe('doctype');
    expect(await refusal(bytes(minimal('<!doctype x>')))).toBe('doctype');
    // In UTF-16 too.
    expect(await refusal(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xxe, 'utf16le')]))).toBe('doctype');
  });

  it('refuses what is not XML, not BPMN, not UTF-8, or larger than the cap', async () => {
    expect(await refusal(bytes('{"format":"casebook-protocol"}'))).toBe('notXml');
    expect(await refusal(bytes('<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"><bpmn:process id="p">'))).toBe('notXml');
    expect(await refusal(bytes(''))).toBe('notXml');
    expect(await refusal(bytes('<html><body>hello</body></html>'))).toBe('notBpmn');
    expect(await refusal(Buffer.from([0x3c, 0x61, 0xff, 0xfe, 0x3e]))).toBe('encoding');
    expect(await refusal(Buffer.alloc(BPMN_MAX_BYTES + 1, 0x20))).toBe('tooLarge');
    expect(await refusal(bytes(minimal('')))).toBe('read');
    expect(await refusal(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(minimal(''), 'utf16le')]))).toBe('read');
  });

  it('stops reading an upload at the cap', async () => {
    let pulled = 0;
    async function* chunks() {
      for (let i = 0; i < 100; i++) {
        pulled++;
        yield Buffer.alloc(1024 * 1024, 0x20);
      }
    }
    await expect(readUpload(chunks())).rejects.toMatchObject({ reason: 'tooLarge', params: { max: 5 } });
    expect(pulled).toBe(6);
  });

  it('names a file without a process', async () => {
    const conv = convertBpmn(await readBpmnFile(bytes(minimal('<bpmn:message id="m" name="x"/>'))));
    expect(conv.problems).toEqual([expect.objectContaining({ reason: 'bpmn.noProcess' })]);
  });
});

/** A hand-written Camunda Modeler 7 file: a timer start, a service task, a timer on a task with an escalation path, JUEL conditions, candidate groups. */
const camunda = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="Definitions_0x" targetNamespace="http://bpmn.io/schema/bpmn" exporter="Camunda Modeler" exporterVersion="5.20.0">
  <bpmn:process id="invoice" name="Invoice" isExecutable="true">
    <bpmn:startEvent id="StartEvent_Daily" name="Every morning">
      <bpmn:timerEventDefinition id="TimerEventDefinition_1"><bpmn:timeCycle xsi:type="bpmn:tFormalExpression">R/P1D</bpmn:timeCycle></bpmn:timerEventDefinition>
    </bpmn:startEvent>
    <bpmn:userTask id="Activity_Approve" name="Approve invoice" camunda:candidateGroups="Accounting, Management" camunda:formKey="embedded:app:forms/approve.html" />
    <bpmn:exclusiveGateway id="Gateway_Approved" name="Approved?" default="Flow_No" />
    <bpmn:serviceTask id="Activity_Archive" name="Archive" camunda:class="org.example.Archive" />
    <bpmn:userTask id="Activity_Pay" name="Pay" camunda:assignee="payments@example.test" />
    <bpmn:userTask id="Activity_Review" name="Review again" />
    <bpmn:boundaryEvent id="Event_Late" attachedToRef="Activity_Approve" cancelActivity="false">
      <bpmn:timerEventDefinition><bpmn:timeDuration xsi:type="bpmn:tFormalExpression">P2D</bpmn:timeDuration></bpmn:timerEventDefinition>
    </bpmn:boundaryEvent>
    <bpmn:userTask id="Activity_Chase" name="Chase approver" />
    <bpmn:endEvent id="EndEvent_Paid" />
    <bpmn:endEvent id="EndEvent_Chased" />
    <bpmn:sequenceFlow id="Flow_1" sourceRef="StartEvent_Daily" targetRef="Activity_Approve" />
    <bpmn:sequenceFlow id="Flow_2" sourceRef="Activity_Approve" targetRef="Gateway_Approved" />
    <bpmn:sequenceFlow id="Flow_Yes" sourceRef="Gateway_Approved" targetRef="Activity_Archive">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">\${approved &amp;&amp; amount &gt; 0}</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="Flow_No" sourceRef="Gateway_Approved" targetRef="Activity_Review" />
    <bpmn:sequenceFlow id="Flow_3" sourceRef="Activity_Archive" targetRef="Activity_Pay" />
    <bpmn:sequenceFlow id="Flow_4" sourceRef="Activity_Pay" targetRef="EndEvent_Paid" />
    <bpmn:sequenceFlow id="Flow_5" sourceRef="Activity_Review" targetRef="Activity_Approve" />
    <bpmn:sequenceFlow id="Flow_6" sourceRef="Event_Late" targetRef="Activity_Chase" />
    <bpmn:sequenceFlow id="Flow_7" sourceRef="Activity_Chase" targetRef="EndEvent_Chased" />
  </bpmn:process>
</bpmn:definitions>`;

describe('a Camunda-style file', () => {
  it('lists what the engine cannot run by element id, and what dropping them leaves', async () => {
    const conv = convertBpmn(await readBpmnFile(bytes(camunda)));
    expect(conv.problems).toEqual([]);
    expect(conv.unsupported.map((u) => [u.id, u.type, u.reason])).toEqual([
      ['StartEvent_Daily', 'bpmn:timerEventDefinition', 'bpmn.unsupported.startEvent'],
      ['Activity_Archive', 'bpmn:serviceTask', 'bpmn.unsupported.activity'],
      ['Event_Late', 'bpmn:timerEventDefinition', 'bpmn.unsupported.boundaryEvent'],
      ['Activity_Chase', 'bpmn:userTask', 'bpmn.unsupported.onlyThroughDropped'],
    ]);
    // The timer start becomes a plain start, the service task is passed through, the chase path goes with its boundary event.
    expect(conv.start).toEqual(['activity_approve']);
    expect(conv.tasks.map((t) => t.code)).toEqual(['activity_approve', 'activity_pay', 'activity_review']);
    const approve = conv.tasks[0];
    expect(approve).toMatchObject({
      elementId: 'Activity_Approve',
      name: 'Approve invoice',
      // The first candidate group is the team; the form key is Camunda's, not a Casebook form.
      responsible: { kind: 'team', team: 'Accounting' },
      form: null,
      // ${...} is taken off; the default flow is the negation of the other.
      onAccept: [{ to: 'activity_pay', when: 'approved && amount > 0' }, { to: 'activity_review', when: '!(approved && amount > 0)' }],
    });
    expect(conv.tasks[1]).toMatchObject({ responsible: { kind: 'user', email: 'payments@example.test' }, onAccept: [] });
    // A rework loop back to the approval is an accept edge like any other.
    expect(conv.tasks[2]).toMatchObject({ responsible: { kind: 'owner' }, onAccept: [{ to: 'activity_approve' }] });
  });

  it('refuses what cannot be dropped without guessing, naming the element', async () => {
    const withGateway = camunda.replace('<bpmn:exclusiveGateway id="Gateway_Approved" name="Approved?" default="Flow_No" />', '<bpmn:eventBasedGateway id="Gateway_Approved" />');
    expect(convertBpmn(await readBpmnFile(bytes(withGateway))).problems).toEqual([
      expect.objectContaining({ id: 'Gateway_Approved', reason: 'bpmn.gatewayUnsupported', params: expect.objectContaining({ type: 'bpmn:eventBasedGateway' }) }),
    ]);
    const script = camunda.replace('xsi:type="bpmn:tFormalExpression">${approved', 'xsi:type="bpmn:tFormalExpression" language="javascript">${approved');
    expect(convertBpmn(await readBpmnFile(bytes(script))).problems).toEqual([expect.objectContaining({ id: 'Flow_Yes', reason: 'bpmn.conditionLanguage' })]);
    const broken = camunda.replace('${approved &amp;&amp; amount &gt; 0}', 'amount &gt;');
    expect(convertBpmn(await readBpmnFile(bytes(broken))).problems).toEqual([expect.objectContaining({ id: 'Flow_Yes', reason: 'bpmn.badCondition', params: expect.objectContaining({ position: 9 }) })]);
    const noDefault = camunda.replace(' default="Flow_No"', '').replace(/<bpmn:conditionExpression[^]*?<\/bpmn:conditionExpression>/, '');
    expect(convertBpmn(await readBpmnFile(bytes(noDefault))).problems).toEqual([expect.objectContaining({ id: 'Gateway_Approved', reason: 'bpmn.choiceWithoutConditions' })]);
  });

  it('refuses gateways that go round without a task, and lists an end reached on a condition', async () => {
    const process = (inside: string) =>
      `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d" targetNamespace="t"><bpmn:process id="p"><bpmn:startEvent id="s"/><bpmn:userTask id="a"/>${inside}<bpmn:sequenceFlow id="f0" sourceRef="s" targetRef="a"/></bpmn:process></bpmn:definitions>`;
    const loop = process(
      '<bpmn:exclusiveGateway id="g1"/><bpmn:exclusiveGateway id="g2"/><bpmn:sequenceFlow id="f1" sourceRef="a" targetRef="g1"/><bpmn:sequenceFlow id="f2" sourceRef="g1" targetRef="g2"/><bpmn:sequenceFlow id="f3" sourceRef="g2" targetRef="g1"/>',
    );
    expect(convertBpmn(await readBpmnFile(bytes(loop))).problems).toEqual([expect.objectContaining({ id: 'g1', reason: 'bpmn.loopWithoutTask' })]);
    const conditionalEnd = process(
      '<bpmn:userTask id="b"/><bpmn:endEvent id="e"/><bpmn:exclusiveGateway id="g" default="fe"/><bpmn:sequenceFlow id="f1" sourceRef="a" targetRef="g"/>' +
        '<bpmn:sequenceFlow id="fb" sourceRef="g" targetRef="b"><bpmn:conditionExpression>ok == true</bpmn:conditionExpression></bpmn:sequenceFlow><bpmn:sequenceFlow id="fe" sourceRef="g" targetRef="e"/>',
    );
    const conv = convertBpmn(await readBpmnFile(bytes(conditionalEnd)));
    expect(conv.unsupported).toEqual([expect.objectContaining({ id: 'fe', reason: 'bpmn.unsupported.conditionalEnd' })]);
    expect(conv.tasks[0].onAccept).toEqual([{ to: 'b', when: 'ok == true' }]);
    // A choice before the first task: the flow that sets the condition is named.
    const choiceAtStart = process('<bpmn:userTask id="b"/><bpmn:exclusiveGateway id="g"/><bpmn:sequenceFlow id="fg" sourceRef="s" targetRef="g"/><bpmn:sequenceFlow id="fc" sourceRef="g" targetRef="b"><bpmn:conditionExpression>x == 1</bpmn:conditionExpression></bpmn:sequenceFlow>');
    expect(convertBpmn(await readBpmnFile(bytes(choiceAtStart))).problems).toEqual([expect.objectContaining({ id: 'fc', reason: 'bpmn.conditionAtStart' })]);
  });
});

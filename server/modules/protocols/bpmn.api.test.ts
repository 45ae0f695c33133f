import { BpmnModdle } from 'bpmn-moddle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProtocolDefinition, TaskTemplate } from '../../../core/workflow/protocol.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { DEMO_DECISIONS, demoAward, RENTAL_PROTOCOL_CODE } from '../../db/seed/workflow.js';
import { actorForUser } from '../auth/sessions.js';
import { createDraft, submitCase } from '../cases/commands.js';
import { acceptTask } from '../workflow/engine.js';
import { list, newModdle, ref, str } from './bpmn-casebook.js';

/**
 * The BPMN routes on the demo data (its rental-assistance protocol, teams,
 * forms and people): the export of a published version, the round trip back
 * into the protocol as its draft, published and run like the original, a
 * Camunda-style file with a timer refused and then taken without it, and
 * bad files refused with nothing changed. "Other Agency" plays another
 * tenant.
 */
let t: TestApp;
let coordinator: { sid: string };
let reviewer: { sid: string };
let otherAdmin: { sid: string };
let protocolId: number;
let entityId: number;

beforeAll(async () => {
  t = await createTestApp({ demo: true, workflow: true });
  [coordinator, reviewer, otherAdmin] = await Promise.all(['coordinator@demo.test', 'reviewer@demo.test', 'admin@other.test'].map((email) => login(t, email, 'Demo12345')));
  const p = await t.db.selectFrom('protocols as p').innerJoin('entities as e', 'e.id', 'p.entity_id').where('e.docnumber', '=', '900100200').where('p.code', '=', RENTAL_PROTOCOL_CODE).select(['p.id', 'p.entity_id']).executeTakeFirstOrThrow();
  protocolId = p.id;
  entityId = p.entity_id;
});
afterAll(() => t.close());

type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };
type Detail = { id: number; publishedVersion: number; changedSincePublished: boolean; definition: ProtocolDefinition; dropped: Array<{ id: string; type: string; message: string }> };
const get = (url: string, who: { sid: string }, lang = 'en') => t.request({ method: 'GET', url, cookies: { ...who, lang } });
const postXml = (url: string, who: { sid: string }, xml: string | Buffer, lang = 'en', type = 'application/xml') =>
  t.request({ method: 'POST', url, cookies: { ...who, lang }, payload: xml, headers: { 'content-type': type } });
const draftOf = async () => (await t.db.selectFrom('protocols').where('id', '=', protocolId).select(['draft', 'updated_at']).executeTakeFirstOrThrow());
const protocolCount = async () => Number((await t.db.selectFrom('protocols').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** What a task does, without what publishing freezes (form versions). */
const shape = (def: ProtocolDefinition) => ({
  start: def.start,
  duplicateFields: def.duplicateFields,
  pendingColumns: def.pendingColumns,
  tasks: def.tasks.map(({ formVersionId: _, ...task }: TaskTemplate) => task),
});

describe('export', () => {
  it('answers a published version as BPMN 2.0 that bpmn-moddle reads without a warning: tasks, gateways, conditions, a shape for every flow node', async () => {
    const res = await get(`/api/protocols/${protocolId}/bpmn?version=1`, coordinator);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="rental-assistance-v1.bpmn"');
    for (const moddle of [newModdle(), new BpmnModdle()]) {
      const { rootElement, warnings } = await moddle.fromXML(res.body, 'bpmn:Definitions');
      expect(warnings).toEqual([]);
      const process = list(rootElement, 'rootElements')[0];
      const shapes = new Set(list(ref(list(rootElement, 'diagrams')[0], 'plane'), 'planeElement').map((d) => str(ref(d, 'bpmnElement'), 'id')));
      for (const e of list(process, 'flowElements')) expect(shapes.has(str(e, 'id')), str(e, 'id')).toBe(true);
    }
    const { rootElement } = await newModdle().fromXML(res.body, 'bpmn:Definitions');
    const elements = list(list(rootElement, 'rootElements')[0], 'flowElements');
    const ofType = (type: string) => elements.filter((e) => e.$type === type).map((e) => str(e, 'id'));
    expect(ofType('bpmn:UserTask')).toEqual(['intake', 'documents', 'eligibility', 'landlord', 'payment', 'supervisor', 'notify']);
    expect(ofType('bpmn:ParallelGateway').sort()).toEqual(['Gateway_join_payment', 'Gateway_split_documents']);
    expect(ofType('bpmn:ExclusiveGateway').sort()).toEqual(['Gateway_choice_eligibility', 'Gateway_choice_payment']);
    expect(ofType('bpmn:StartEvent')).toHaveLength(1);
    expect(ofType('bpmn:EndEvent')).toHaveLength(1);
    expect(elements.map((e) => str(ref(e, 'conditionExpression'), 'body')).filter(Boolean)).toEqual(["eligible == 'yes'", 'amount > 5000', 'amount <= 5000']);
    // The team and the form as extension elements, by name and code.
    const intake = elements.find((e) => str(e, 'id') === 'intake');
    expect(list(ref(intake, 'extensionElements'), 'values')[0]).toMatchObject({ $type: 'casebook:Task', team: 'Intake', form: 'intake-review', nameEn: 'Intake review' });
  });

  it('answers the draft without a version; 404 for a version it does not have, for another tenant, and 403 without the right', async () => {
    const draft = await get(`/api/protocols/${protocolId}/bpmn`, coordinator, 'es');
    expect(draft.statusCode).toBe(200);
    expect(draft.headers['content-disposition']).toContain('rental-assistance-draft.bpmn');
    expect(draft.body).toContain('name="Fin"');
    expect((await get(`/api/protocols/${protocolId}/bpmn?version=99`, coordinator)).statusCode).toBe(404);
    const theirs = await get(`/api/protocols/${protocolId}/bpmn`, otherAdmin);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).not.toContain('intake');
    expect((await get(`/api/protocols/${protocolId}/bpmn`, reviewer)).statusCode).toBe(403);
  });
});

describe('round trip', () => {
  /** A case of the demo's protocol opened by the demo applicant, decided by the system with the demo's values; the open tasks after each step. */
  const runCase = async (decisions: Array<[string, Record<string, unknown>]>) => {
    const applicantId = (await t.db.selectFrom('users').where('email', '=', 'applicant@demo.test').select('id').executeTakeFirstOrThrow()).id;
    const applicant = await actorForUser(t.db, applicantId);
    const sample = await t.db.selectFrom('cases').where('protocol_id', '=', protocolId).where('state', '<>', 'DRAFT').select(['data', 'project_id']).orderBy('id').executeTakeFirstOrThrow();
    // Without the demo's landlord (issue 23: a party would be invited and the landlord's task would wait for her).
    const { landlord: _landlord, ...sampleData } = sample.data as Record<string, unknown>;
    const data = { ...sampleData, documentNumber: String(Math.floor(Math.random() * 1e9) + 2e9) };
    const caseId = await t.db.transaction().execute((trx) => createDraft(trx, applicant, { protocolId, projectId: sample.project_id, ownerId: applicantId, data }));
    await submitCase(t.db, t.app.engine, applicant, caseId);
    const open = async () => {
      const tasks = await t.db.selectFrom('tasks').where('case_id', '=', caseId).where('state', 'in', ['PENDING', 'BLOCKED', 'UNASSIGNED']).select(['code', 'state']).orderBy('code').execute();
      const c = await t.db.selectFrom('cases').where('id', '=', caseId).select('state').executeTakeFirstOrThrow();
      return { case: c.state, tasks: tasks.map((x) => `${x.code}:${x.state}`) };
    };
    const trace = [await open()];
    for (const [code, values] of decisions) {
      const task = await t.db.selectFrom('tasks').where('case_id', '=', caseId).where('code', '=', code).where('state', '=', 'PENDING').select('id').executeTakeFirstOrThrow();
      // The payment approval sets the award (issue 23).
      await acceptTask(t.db, t.app.engine, { system: true, entityId }, task.id, { data: values, ...(code === 'payment' ? { award: demoAward(Number(values.amount), caseId) } : {}) });
      trace.push(await open());
    }
    const version = await t.db.selectFrom('cases as c').innerJoin('protocol_versions as v', 'v.id', 'c.protocol_version_id').where('c.id', '=', caseId).select('v.version').executeTakeFirstOrThrow();
    return { trace, version: version.version };
  };
  const { intakeOk, docsOk, eligible, landlordOk, pay } = DEMO_DECISIONS;
  const paid: Array<[string, Record<string, unknown>]> = [['intake', intakeOk], ['documents', docsOk], ['landlord', landlordOk], ['eligibility', eligible], ['payment', pay(900)], ['notify', {}]];
  const notEligible: Array<[string, Record<string, unknown>]> = [['intake', intakeOk], ['documents', docsOk], ['eligibility', { eligible: 'no', amiPercent: 120, reason: 'Income above the limit' }]];

  it('imports the export of version 1 back as the draft: the same tasks, conditions and branches; published, a case runs the same way', async () => {
    const before = { paid: await runCase(paid), notEligible: await runCase(notEligible) };
    expect(before.paid.version).toBe(1);
    // The branches were taken: payment waited for eligibility, then the small payment went straight to notify.
    expect(before.paid.trace[3].tasks).toEqual(['eligibility:PENDING', 'payment:BLOCKED']);
    expect(before.paid.trace[5].tasks).toEqual(['notify:PENDING']);
    expect(before.notEligible.trace.at(-1)?.case).not.toBe('PENDING');

    const xml = (await get(`/api/protocols/${protocolId}/bpmn?version=1`, coordinator)).body;
    // Another draft first, so that the import visibly replaces it.
    const detail = (await get(`/api/protocols/${protocolId}`, coordinator)).json<Detail & { code: string; name: string; caseType: string; mainFormId: number }>();
    const changed = { ...detail.definition, start: ['intake'], tasks: [{ ...detail.definition.tasks[0], onAccept: [] }] };
    const put = await t.request({
      method: 'PUT', url: `/api/protocols/${protocolId}`, cookies: coordinator,
      payload: { code: detail.code, name: detail.name, caseType: detail.caseType, mainFormId: detail.mainFormId, definition: changed } as never,
    });
    expect(put.json<Detail>().changedSincePublished).toBe(true);

    const res = await postXml(`/api/protocols/${protocolId}/bpmn`, coordinator, xml);
    expect(res.statusCode).toBe(200);
    const imported = res.json<Detail>();
    expect(imported.dropped).toEqual([]);
    expect(imported.changedSincePublished).toBe(false);
    const v1 = (await t.db.selectFrom('protocol_versions').where('protocol_id', '=', protocolId).where('version', '=', 1).select('definition').executeTakeFirstOrThrow()).definition as ProtocolDefinition;
    expect(shape(imported.definition)).toEqual(shape(v1));
    expect(imported.definition.tasks.find((x) => x.code === 'payment')).toMatchObject({ join: 'all', onAccept: [{ to: 'supervisor', when: 'amount > 5000' }, { to: 'notify', when: 'amount <= 5000' }] });

    const published = await t.request({ method: 'POST', url: `/api/protocols/${protocolId}/publish`, cookies: coordinator });
    expect(published.json<Detail>().publishedVersion).toBe(2);
    const after = { paid: await runCase(paid), notEligible: await runCase(notEligible) };
    expect(after.paid.version).toBe(2);
    expect(after.paid.trace).toEqual(before.paid.trace);
    expect(after.notEligible.trace).toEqual(before.notEligible.trace);
  });
});

/** A Camunda Modeler style file on the demo's teams and people, with a timer start and a timer on a task. */
const camunda = (group = 'Payments') => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  id="Definitions_1" targetNamespace="http://bpmn.io/schema/bpmn" exporter="Camunda Modeler" exporterVersion="5.20.0">
  <bpmn:process id="Process_review" isExecutable="true">
    <bpmn:startEvent id="StartEvent_Weekly"><bpmn:timerEventDefinition id="TimerEventDefinition_0abc"><bpmn:timeCycle xsi:type="bpmn:tFormalExpression">R/P7D</bpmn:timeCycle></bpmn:timerEventDefinition></bpmn:startEvent>
    <bpmn:userTask id="Activity_Check" name="Check the request" camunda:candidateGroups="${group}" />
    <bpmn:exclusiveGateway id="Gateway_Big" default="Flow_Small" />
    <bpmn:userTask id="Activity_Approve" name="Approve" camunda:assignee="coordinator@demo.test" />
    <bpmn:intermediateCatchEvent id="Event_Wait"><bpmn:timerEventDefinition><bpmn:timeDuration xsi:type="bpmn:tFormalExpression">PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
    <bpmn:userTask id="Activity_Notify" name="Notify" camunda:candidateGroups="Payments" />
    <bpmn:endEvent id="EndEvent_Done" />
    <bpmn:sequenceFlow id="Flow_1" sourceRef="StartEvent_Weekly" targetRef="Activity_Check" />
    <bpmn:sequenceFlow id="Flow_2" sourceRef="Activity_Check" targetRef="Gateway_Big" />
    <bpmn:sequenceFlow id="Flow_Big" sourceRef="Gateway_Big" targetRef="Activity_Approve"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">\${amount &gt; 5000}</bpmn:conditionExpression></bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="Flow_Small" sourceRef="Gateway_Big" targetRef="Event_Wait" />
    <bpmn:sequenceFlow id="Flow_3" sourceRef="Activity_Approve" targetRef="Event_Wait" />
    <bpmn:sequenceFlow id="Flow_4" sourceRef="Event_Wait" targetRef="Activity_Notify" />
    <bpmn:sequenceFlow id="Flow_5" sourceRef="Activity_Notify" targetRef="EndEvent_Done" />
  </bpmn:process>
</bpmn:definitions>`;

describe('import of another modeler’s file', () => {
  it('refuses a file with timers naming each element, changing nothing; with the drop flag, takes it without them', async () => {
    const before = await draftOf();
    const refused = await postXml(`/api/protocols/${protocolId}/bpmn`, coordinator, camunda());
    expect(refused.statusCode).toBe(422);
    const { error } = refused.json<Err>();
    expect(error.code).toBe('UNPROCESSABLE');
    expect(error.details?.map((d) => d.path)).toEqual(['unsupported.StartEvent_Weekly', 'unsupported.Event_Wait']);
    expect(error.details?.[0].message).toMatch(/^StartEvent_Weekly is a start event with a bpmn:timerEventDefinition/);
    expect(await draftOf()).toEqual(before);
    // In Spanish too.
    const es = (await postXml(`/api/protocols/${protocolId}/bpmn`, coordinator, camunda(), 'es')).json<Err>();
    expect(es.error.details?.[1].message).toMatch(/^Event_Wait espera o envía un bpmn:timerEventDefinition/);

    const taken = await postXml(`/api/protocols/${protocolId}/bpmn?dropUnsupported=true`, coordinator, camunda(), 'en', 'application/octet-stream');
    expect(taken.statusCode).toBe(200);
    const detail = taken.json<Detail>();
    expect(detail.dropped.map((d) => [d.id, d.type])).toEqual([['StartEvent_Weekly', 'bpmn:timerEventDefinition'], ['Event_Wait', 'bpmn:timerEventDefinition']]);
    expect(detail.changedSincePublished).toBe(true);
    const teams = new Map((await t.db.selectFrom('teams').where('entity_id', '=', entityId).select(['id', 'name']).execute()).map((x) => [x.name, x.id]));
    const coordinatorId = (await t.db.selectFrom('users').where('email', '=', 'coordinator@demo.test').select('id').executeTakeFirstOrThrow()).id;
    expect(detail.definition.start).toEqual(['activity_check']);
    expect(detail.definition.tasks.map((x) => [x.code, x.responsible, x.join, x.onAccept])).toEqual([
      ['activity_check', { kind: 'team', teamId: teams.get('Payments') }, 'any', [{ to: 'activity_approve', when: 'amount > 5000' }, { to: 'activity_notify', when: '!(amount > 5000)' }]],
      ['activity_approve', { kind: 'user', userId: coordinatorId }, 'any', [{ to: 'activity_notify' }]],
      ['activity_notify', { kind: 'team', teamId: teams.get('Payments') }, 'any', []],
    ]);
    // The main form's settings were not in the file: the draft keeps them.
    expect(detail.definition.duplicateFields).toEqual(['documentType', 'documentNumber']);
    // Published versions did not change.
    expect((await get(`/api/protocols/${protocolId}`, coordinator)).json<Detail>().publishedVersion).toBe(2);
  });

  it('reports a team, form or task the tenant does not have by element, and imports nothing', async () => {
    const before = await draftOf();
    const unknownTeam = await postXml(`/api/protocols/${protocolId}/bpmn?dropUnsupported=true`, coordinator, camunda('Accounting'));
    expect(unknownTeam.statusCode).toBe(422);
    expect(unknownTeam.json<Err>().error.details?.filter((d) => !d.path.startsWith('unsupported.'))).toEqual([
      { path: 'Activity_Check', message: 'Task Activity_Check names the team “Accounting”, which this agency does not have: create it or change the file' },
    ]);
    const exported = (await get(`/api/protocols/${protocolId}/bpmn?version=1`, coordinator)).body;
    const unknownForm = await postXml(`/api/protocols/${protocolId}/bpmn`, coordinator, exported.replace('form="intake-review"', 'form="no-such-form"'));
    expect(unknownForm.json<Err>().error.details).toEqual([{ path: 'intake', message: 'Task intake names the form “no-such-form”, which this agency does not have' }]);
    // Another tenant's team name is not this tenant's.
    const otherTeam = await postXml(`/api/protocols/${protocolId}/bpmn`, coordinator, exported.replace('team="Intake"', 'team="Other Agency team"'));
    expect(otherTeam.statusCode).toBe(422);
    expect(await draftOf()).toEqual(before);
  });
});

describe('bad files', () => {
  it('refuses XXE, not XML, a huge file, no process and a loop that never ends, with a 4xx in the caller’s language, and creates or changes nothing', async () => {
    const before = await draftOf();
    const protocols = await protocolCount();
    const url = `/api/protocols/${protocolId}/bpmn?dropUnsupported=true`;

    const xxe = `<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"><bpmn:process id="p"><bpmn:userTask id="a" name="&x;"/></bpmn:process></bpmn:definitions>`;
    const refusedXxe = await postXml(url, coordinator, xxe);
    expect(refusedXxe.statusCode).toBe(400);
    expect(refusedXxe.json<Err>().error).toMatchObject({ code: 'VALIDATION', details: [{ path: 'file', message: expect.stringContaining('DOCTYPE or an ENTITY') }] });
    expect(refusedXxe.body).not.toContain('root:');

    const notXml = await postXml(url, coordinator, '{"format":"casebook-protocol"}', 'es');
    expect(notXml.statusCode).toBe(400);
    expect(notXml.json<Err>().error.message).toContain('El archivo no es XML bien formado');

    const huge = await postXml(url, coordinator, Buffer.alloc(6 * 1024 * 1024, 0x20));
    expect(huge.statusCode).toBe(413);
    expect(huge.json<Err>().error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: [{ path: 'file', message: 'The BPMN file is larger than 5 MB' }] });

    const noProcess = await postXml(url, coordinator, '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d"><bpmn:message id="m"/></bpmn:definitions>');
    expect(noProcess.statusCode).toBe(422);
    expect(noProcess.json<Err>().error.details).toEqual([{ path: 'definitions', message: 'The file has no process with tasks or events' }]);

    // a -> b -> a with no way out: the engine would keep a case going round for ever.
    const loop =
      '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d"><bpmn:process id="p"><bpmn:startEvent id="s"/><bpmn:userTask id="a" name="A"/><bpmn:userTask id="b" name="B"/>' +
      '<bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="a"/><bpmn:sequenceFlow id="f2" sourceRef="a" targetRef="b"/><bpmn:sequenceFlow id="f3" sourceRef="b" targetRef="a"/></bpmn:process></bpmn:definitions>';
    const refusedLoop = await postXml(url, coordinator, loop);
    expect(refusedLoop.statusCode).toBe(422);
    expect(refusedLoop.json<Err>().error.details).toEqual(
      expect.arrayContaining([{ path: 'a', message: 'a: From this task a case could go round for ever: give the loop a way out' }]),
    );

    // Sent as JSON or CSV: not a BPMN upload.
    expect((await t.request({ method: 'POST', url, cookies: coordinator, payload: { xml: loop } })).statusCode).toBe(415);
    expect((await postXml(url, coordinator, 'a,b\n', 'en', 'text/csv')).statusCode).toBe(415);

    expect(await draftOf()).toEqual(before);
    expect(await protocolCount()).toBe(protocols);
    expect((await t.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('answers 404 for another tenant’s protocol and 403 without the right to change protocols, changing nothing', async () => {
    const before = await draftOf();
    const exported = (await get(`/api/protocols/${protocolId}/bpmn?version=1`, coordinator)).body;
    const theirs = await postXml(`/api/protocols/${protocolId}/bpmn`, otherAdmin, exported);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json<Err>().error.code).toBe('NOT_FOUND');
    expect((await postXml(`/api/protocols/${protocolId}/bpmn`, reviewer, exported)).statusCode).toBe(403);
    expect(await draftOf()).toEqual(before);
  });
});

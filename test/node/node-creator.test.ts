/**
 * What n8n's node creator makes of the two nodes, read the way its editor reads a node description
 * (editor-ui `useActionsGeneration.ts`, n8n 2.41): one card for the node and its trigger, described by the
 * trigger's description; the trigger's entries from the options of its first parameter labelled Event, Events or
 * Trigger On, each setting that parameter; the node's actions resource by resource from every parameter named
 * Resource shown in the default version, each with the first Operation parameter shown for it, opening the node
 * with that operation and the first value of each of its display conditions. The parameters a new node then gets
 * are n8n-workflow's own (`getNodeParameters`, as the editor's `setLastNodeParameters`). test/e2e/first-hour.test.ts
 * clicks the same entries in the real editor.
 */
import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { FieldOps } from '../../nodes/FieldOps/FieldOps.node';
import { FieldOpsTrigger } from '../../nodes/FieldOpsTrigger/FieldOpsTrigger.node';
import { EVERYDAY, RESOURCES } from '../../nodes/FieldOps/resources';
import { REPORT_FEEDS } from '../../nodes/FieldOps/reporting/feeds';

const node = new FieldOps().description;
const trigger = new FieldOpsTrigger().description;
const defaultVersion = (description: INodeTypeDescription) =>
	description.defaultVersion ?? Math.max(...[description.version].flat());

interface Entry {
	label: string;
	action: string;
	/** What the editor sets on the new node. */
	values: INodeParameters;
}

/** The first value of each display condition of the parameter an action comes from. */
const conditionValues = (property: INodeProperties): INodeParameters =>
	Object.fromEntries(
		Object.entries(property.displayOptions?.show ?? {}).map(([key, values]) => [
			key,
			(values as INodeParameters[string][])[0],
		]),
	);
const inVersion = (property: INodeProperties, version: number) => {
	const versions = property.displayOptions?.show?.['@version'];
	return !versions || NodeHelpers.checkConditions(versions, [version]);
};

function triggerEntries(description: INodeTypeDescription): Entry[] {
	const property = description.properties.find((p) =>
		['event', 'events', 'trigger on'].includes(p.displayName.toLowerCase()),
	)!;
	return (property.options as INodePropertyOptions[]).map((option) => ({
		label: 'Triggers',
		action: option.action ?? `On ${option.name}`,
		values: { ...conditionValues(property), [property.name]: option.value },
	}));
}

function actions(description: INodeTypeDescription): Entry[] {
	const version = defaultVersion(description);
	return description.properties
		.filter((p) => p.name === 'resource' && inVersion(p, version))
		.flatMap((resource) =>
			(resource.options as INodePropertyOptions[]).flatMap((option) => {
				const operations = description.properties.find(
					(p) =>
						p.name === 'operation' &&
						(p.displayOptions?.show?.resource ?? []).includes(option.value) &&
						inVersion(p, version),
				)!;
				return (operations.options as INodePropertyOptions[]).map((operation) => ({
					label: `${option.name} Actions`,
					action: operation.action ?? operation.name,
					values: { operation: operation.value, ...conditionValues(operations) },
				}));
			}),
		);
}

/** The parameters of a node added from an entry, as the editor fills them in. */
function added(description: INodeTypeDescription, values: INodeParameters): INodeParameters {
	const version = defaultVersion(description);
	const created = {
		name: 'n',
		type: description.name,
		typeVersion: version,
		parameters: {},
	} as unknown as INode;
	return NodeHelpers.getNodeParameters(description.properties, values, true, false, created, description)!;
}

/** Whether the editor's panel shows a parameter of a node with these parameters. */
const inPanel = (description: INodeTypeDescription, parameters: INodeParameters, property: INodeProperties) =>
	NodeHelpers.displayParameter(
		parameters,
		property,
		{ typeVersion: defaultVersion(description) } as INode,
		description,
	);

describe('Field Ops in the node creator', () => {
	it('one card, saying what the node does: the trigger describes itself as the node does', () => {
		expect(trigger.description).toBe(node.description);
		expect(node.description).toMatch(/^Export hours .* upload documents/);
	});

	it('lists the everyday jobs first among the actions, each opening the node on its real operation', () => {
		const listed = actions(node);
		const jobs = EVERYDAY.filter((job) => {
			const [resource, operation] = job.split(':');
			return RESOURCES.find((r) => r.value === resource)?.operations.some((o) => o.value === operation);
		});
		expect(jobs).toEqual(['report:timeRegistrations', 'document:upload', 'employee:upsert']);
		expect(listed.slice(0, jobs.length).map((entry) => entry.label)).toEqual(
			jobs.map(() => 'Everyday Actions'),
		);
		expect(listed.slice(0, 3).map((entry) => entry.action)).toEqual([
			'Export hours and timesheets (time registrations)',
			'Upload documents or e-mail attachments',
			'Create or update an employee',
		]);
		jobs.forEach((job, index) => {
			const parameters = added(node, listed[index].values);
			expect(`${String(parameters.resource)}:${String(parameters.operation)}`).toBe(job);
			// The everyday parameters are the node creator's alone: the panel never shows them.
			const everyday = node.properties.filter((p) =>
				JSON.stringify(p.displayOptions ?? {}).includes('nodeCreatorOnly'),
			);
			expect(everyday.length).toBeGreaterThan(jobs.length);
			for (const property of everyday) expect(inPanel(node, parameters, property)).toBe(false);
		});
		// Then every resource's actions, as before: the whole list once more after the everyday jobs.
		const rest = listed.slice(jobs.length);
		expect(rest[0]).toMatchObject({ label: 'Work Order Actions', action: 'Create a work order' });
		expect(rest).toHaveLength(RESOURCES.reduce((sum, resource) => sum + resource.operations.length, 0));
	});

	it('a new Report node: Return All on, the workflow’s time zone, Last Week', () => {
		const report = actions(node).find((entry) => entry.action.startsWith('Export hours'))!;
		expect(added(node, report.values)).toMatchObject({
			resource: 'report',
			operation: 'timeRegistrations',
			period: 'lastWeek',
			timeZone: 'workflow',
			returnAll: true,
			simplify: true,
		});
	});

	it('a trigger entry per record and event, n8n style; the everyday one first', () => {
		const entries = triggerEntries(trigger).map((entry) => entry.action);
		expect(entries[0]).toBe('On New Incident Registration');
		expect(entries).toEqual(
			expect.arrayContaining([
				'On Incident Registration Changed',
				'On New Time Registration',
				'On Time Registration Changed',
				'On Machine Registration Deleted',
				'On New Payroll Line (Extended)',
			]),
		);
		// Deletions only where Field Ops reports them.
		expect(entries.filter((entry) => entry.endsWith(' Deleted'))).toEqual([
			'On Absence Registration Deleted',
			'On Machine Registration Deleted',
		]);
		expect(entries).toHaveLength(REPORT_FEEDS.length * 2 + 2);
		expect(new Set(entries).size).toBe(entries.length);
	});

	it('each trigger entry opens with exactly its record and its event, Simplify on', () => {
		for (const entry of triggerEntries(trigger)) {
			const [feed, event] = String(entry.values.entry).split('.');
			expect({ entry: entry.action, ...pick(added(trigger, entry.values)) }).toEqual({
				entry: entry.action,
				feed,
				events: [event],
				simplify: true,
			});
		}
		// A trigger added another way (pasted, or by an agent): New incident registrations.
		expect(pick(added(trigger, {}))).toEqual({
			feed: 'incidentRegistrations',
			events: ['new'],
			simplify: true,
		});
	});

	it('a saved trigger (1) keeps Events new, changed and deleted and has no Simplify', () => {
		const saved = { name: 'n', type: trigger.name, typeVersion: 1, parameters: {} } as unknown as INode;
		const parameters = NodeHelpers.getNodeParameters(trigger.properties, {}, true, false, saved, trigger)!;
		expect(parameters).toMatchObject({
			feed: 'incidentRegistrations',
			events: ['new', 'changed', 'deleted'],
		});
		expect(parameters).not.toHaveProperty('simplify');
		expect(parameters).not.toHaveProperty('entry');
	});
});

const pick = ({ feed, events, simplify }: INodeParameters) => ({ feed, events, simplify });

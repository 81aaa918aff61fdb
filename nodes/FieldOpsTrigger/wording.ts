import { NodeOperationError, type INode, type INodeProperties } from 'n8n-workflow';

import { REPORT_FEEDS, type ReportFeed } from '../FieldOps/reporting/feeds';
import type { Trigger, TriggerEvent } from './state';
import { newestForTest } from './versions';

/** What the trigger says to people: its actions in the node creator, its subtitle, and its test-event messages. */

const titleCase = (text: string) => text.replace(/\b\w/g, (letter) => letter.toUpperCase());

/** A record's name as an action title: "Incident Registration", "Payroll Line (Extended)". */
function recordTitle(feed: ReportFeed): string {
	return feed.title ?? titleCase(feed.record);
}

/** The events of a record type: deletions only where Field Ops reports them. */
export const eventsOf = (feed: ReportFeed): TriggerEvent[] =>
	feed.tombstones ? ['new', 'changed', 'deleted'] : ['new', 'changed'];

/**
 * A node-creator entry per record type and event, as n8n's own triggers name them ("On New Incident
 * Registration", "On Time Registration Changed"), with a line on what starts the workflow.
 */
export function eventEntry(feed: ReportFeed, event: TriggerEvent): { action: string; description: string } {
	const title = recordTitle(feed);
	const one = `${/^[aeiou]/.test(feed.record) ? 'An' : 'A'} ${feed.record}`;
	if (event === 'new') return { action: `On New ${title}`, description: `${one} is registered in Field Ops` };
	const done = event === 'changed' ? 'Changed' : 'Deleted';
	return { action: `On ${title} ${done}`, description: `${one} is ${done.toLowerCase()} in Field Ops` };
}

const EVENT_WORDS: Record<TriggerEvent, string> = { new: 'new', changed: 'changed', deleted: 'deleted' };
const PLURALS = Object.fromEntries(REPORT_FEEDS.map((feed) => [feed.value, feed.name]));

/** The canvas subtitle in words: "Incident Registrations: new, changed". */
export const TRIGGER_SUBTITLE = `={{ (${JSON.stringify(PLURALS)})[$parameter["feed"]] + ": " + ($parameter["events"] || []).join(", ") }}`;

/** What `_event` is, said where the user sees it (not only in a tooltip). */
export const eventNotice: INodeProperties = {
	displayName:
		'Each record arrives as one item. Its field _event says what happened to it: "new", "changed" or "deleted".',
	name: 'eventNotice',
	type: 'notice',
	default: '',
};

const joined = (words: string[]) =>
	words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;

/**
 * "Fetch Test Event" found nothing of the events ticked: say what there is and what to do, rather than n8n's
 * "No Field Ops data found … create one" (shown when a test poll returns nothing), which is wrong when records exist.
 * Without a time of change on its records (`modifiedAt`), a report's records all look new to a test.
 */
export function noTestEvent<T>(
	node: INode,
	feed: ReportFeed,
	{ feed: definition, options }: Trigger<T>,
	{ records, days }: { records: readonly T[]; days: number },
): NodeOperationError {
	const all: TriggerEvent[] = ['new', 'changed', 'deleted'];
	const others = newestForTest(records, definition, { ...options, events: all }).length;
	const what = joined(options.events.map((event) => EVENT_WORDS[event]));
	const plural = feed.name.toLowerCase();
	if (others === 0)
		return new NodeOperationError(node, `No ${plural} in Field Ops in the last ${days} days`, {
			description: `Fetch Test Event shows the newest ${plural}. Check the Filters, or register one in the Field Ops app, then fetch again.`,
		});
	const description =
		options.events.includes('changed') && !definition.modifiedAt
			? `Field Ops has ${plural}, but the ${feed.name} report does not say when a record was changed, so a test sees each one as new. The active workflow does report changes as they happen. To get sample data now, tick New under Events as well, then fetch again.`
			: `The newest ${plural} are of other events than ${what}. Tick more Events to get sample data now, or wait for a ${what} one and fetch again.`;
	return new NodeOperationError(node, `No ${what} ${plural} to show as a test event`, { description });
}

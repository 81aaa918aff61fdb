/**
 * The examples as a user first sees them on n8n's canvas: no node sits on a sticky note (or on another node), and
 * the notes speak the user's words, not ours. Boxes are n8n's canvas sizes, measured from the editor: a node is
 * drawn 100×100 from its position (a trigger too), its name and subtitle below it in a label about 200 wide and
 * 60 tall, centred under it (40 more for a note shown in the flow); a sticky note from its position, width and
 * height (240×160 unless set).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const EXAMPLES = join(__dirname, '..', 'examples');
const STICKY = 'n8n-nodes-base.stickyNote';

interface Node {
	name: string;
	type: string;
	position: [number, number];
	notesInFlow?: boolean;
	parameters: { width?: number; height?: number; content?: string };
}

interface Box {
	x: number;
	y: number;
	width: number;
	height: number;
}

/** What a node covers: its body and its label. */
function nodeBoxes(node: Node): Box[] {
	const [x, y] = node.position;
	return [
		{ x, y, width: 100, height: 100 },
		{ x: x - 50, y: y + 100, width: 200, height: node.notesInFlow ? 100 : 60 },
	];
}

function stickyBox(note: Node): Box {
	const [x, y] = note.position;
	return { x, y, width: note.parameters.width ?? 240, height: note.parameters.height ?? 160 };
}

const overlap = (a: Box, b: Box) =>
	a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const files = readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.json'))
	.sort();
const workflows = files.map((file) => ({
	file,
	nodes: (JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { nodes: Node[] }).nodes,
}));

/** Words of ours a user should not meet in a note: settings' internal names, environment variables, expressions. */
const JARGON: [RegExp, string][] = [
	[/\bSimplify\b/, 'Simplify (name the columns instead)'],
	[/\bwindow\b/i, '"window" (say which days)'],
	[/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/, 'an environment variable'],
	[/\{\{|\$json|\$now/, 'an expression'],
	[/`[^`]*`/, 'code in backticks'],
	[/\b_event\b/, 'an internal field name'],
];

describe('examples on the canvas', () => {
	it('finds the examples', () => {
		expect(files.length).toBeGreaterThanOrEqual(4);
	});

	describe.each(workflows)('$file', ({ nodes }) => {
		const notes = nodes.filter((node) => node.type === STICKY);
		const others = nodes.filter((node) => node.type !== STICKY);

		it('has a note, and no node on it', () => {
			expect(notes.length).toBeGreaterThan(0);
			const onNotes = others.flatMap((node) =>
				notes
					.filter((note) => nodeBoxes(node).some((box) => overlap(box, stickyBox(note))))
					.map((note) => `${node.name} on ${note.name}`),
			);
			expect(onNotes).toEqual([]);
		});

		it('has no node on another', () => {
			const pairs = others.flatMap((a, i) =>
				others
					.slice(i + 1)
					.filter((b) => nodeBoxes(a).some((box) => nodeBoxes(b).some((other) => overlap(box, other))))
					.map((b) => `${a.name} on ${b.name}`),
			);
			expect(pairs).toEqual([]);
		});

		it('speaks plain words in its notes', () => {
			const found = notes.flatMap((note) =>
				JARGON.filter(([pattern]) => pattern.test(note.parameters.content ?? '')).map(
					([, what]) => `${note.name}: ${what}`,
				),
			);
			expect(found).toEqual([]);
		});
	});

	it('sees an overlap where there is one', () => {
		const note = {
			name: 'Note',
			type: STICKY,
			position: [0, 0],
			parameters: { width: 300, height: 200 },
		} as Node;
		const on = { name: 'On', type: 'x', position: [150, 150], parameters: {} } as Node;
		const labelOn = { name: 'Label on', type: 'x', position: [120, -100], parameters: {} } as Node;
		const beside = { name: 'Beside', type: 'x', position: [360, 0], parameters: {} } as Node;
		const hit = (node: Node) => nodeBoxes(node).some((box) => overlap(box, stickyBox(note)));
		expect([on, labelOn, beside].map(hit)).toEqual([true, true, false]);
	});
});

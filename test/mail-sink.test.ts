/**
 * The demo's mail sink (scripts/n8n/mail-sink.ts) spoken to in raw SMTP over a real socket, as a mail client does:
 * it lets in only its own login (AUTH PLAIN and LOGIN), keeps every message whole (dot-stuffing undone, encoded
 * subject decoded), refuses out-of-order commands and messages over its size.
 */
import { connect, type Socket } from 'node:net';

import { decodeWords, startMailSink, type MailSink, type SunkMail } from '../scripts/n8n/mail-sink';

const USER = 'workflows@example.com';
const PASSWORD = 'secret-1';
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** A line-by-line SMTP conversation: `say` sends a line and resolves with the (last line of the) reply. */
async function smtp(port: number) {
	const socket: Socket = connect(port, '127.0.0.1');
	let buffer = '';
	let waiting: ((line: string) => void) | undefined;
	const replies: string[] = [];
	socket.on('data', (chunk: Buffer) => {
		buffer += chunk.toString('utf8');
		for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
			const line = buffer.slice(0, end);
			buffer = buffer.slice(end + 2);
			// "250-…" continues a reply; "250 …" ends it.
			if (/^\d{3}-/.test(line)) continue;
			replies.push(line);
		}
		while (waiting && replies.length) {
			const resolve = waiting;
			waiting = undefined;
			resolve(replies.shift()!);
		}
	});
	const next = () =>
		new Promise<string>((resolve) => {
			if (replies.length) resolve(replies.shift()!);
			else waiting = resolve;
		});
	const greeting = await next();
	return {
		greeting,
		say: (line: string) => {
			socket.write(`${line}\r\n`);
			return next();
		},
		close: () => socket.destroy(),
	};
}

describe('demo mail sink', () => {
	let sink: MailSink;
	const handed: SunkMail[] = [];

	beforeAll(async () => {
		sink = await startMailSink({
			user: USER,
			password: PASSWORD,
			maxBytes: 2000,
			onMessage: (m) => handed.push(m),
		});
	});
	afterAll(async () => await sink.close());

	it('keeps a message sent after AUTH PLAIN whole, for every recipient, and hands it on', async () => {
		const client = await smtp(sink.port);
		expect(client.greeting).toMatch(/^220 /);
		expect(await client.say('EHLO test')).toBe('250 SMTPUTF8');
		expect(await client.say(`AUTH PLAIN ${b64(`\0${USER}\0${PASSWORD}`)}`)).toMatch(/^235 /);
		expect(await client.say('MAIL FROM:<n8n@example.com> BODY=8BITMIME')).toMatch(/^250 /);
		expect(await client.say('RCPT TO:<safety@example.com>')).toMatch(/^250 /);
		expect(await client.say('RCPT TO:<boss@example.com> NOTIFY=NEVER')).toMatch(/^250 /);
		expect(await client.say('DATA')).toMatch(/^354 /);
		const message = [
			'From: n8n@example.com',
			'Subject: =?UTF-8?Q?Hendelse_p=C3=A5?=',
			' =?UTF-8?B?IGJydWEgw6bDuMOl?=',
			'',
			'First line',
			'..a line that starts with a dot',
			'',
		].join('\r\n');
		expect(await client.say(`${message}.`)).toMatch(/^250 /);
		expect(await client.say('QUIT')).toMatch(/^221 /);
		client.close();

		expect(handed).toHaveLength(1);
		expect(handed[0]).toMatchObject({
			from: 'n8n@example.com',
			to: ['safety@example.com', 'boss@example.com'],
			subject: 'Hendelse på brua æøå',
		});
		expect(handed[0].message.toString('utf8')).toBe(message.replace('..a line', '.a line'));
		expect(sink.received).toEqual(handed);
	});

	it('lets in AUTH LOGIN with the right password only, and nothing is sent before a login', async () => {
		const client = await smtp(sink.port);
		await client.say('EHLO test');
		expect(await client.say('MAIL FROM:<n8n@example.com>')).toMatch(/^530 /);
		expect(await client.say('AUTH LOGIN')).toBe('334 VXNlcm5hbWU6');
		expect(await client.say(b64(USER))).toBe('334 UGFzc3dvcmQ6');
		expect(await client.say(b64('wrong'))).toMatch(/^535 /);
		expect(await client.say('MAIL FROM:<n8n@example.com>')).toMatch(/^530 /);
		expect(await client.say(`AUTH LOGIN ${b64(USER)}`)).toBe('334 UGFzc3dvcmQ6');
		expect(await client.say(b64(PASSWORD))).toMatch(/^235 /);
		expect(await client.say('DATA')).toMatch(/^503 /);
		expect(await client.say('MAIL FROM:<n8n@example.com>')).toMatch(/^250 /);
		expect(await client.say('DATA')).toMatch(/^503 /);
		client.close();
	});

	it('refuses a message over its size and stays usable', async () => {
		const before = handed.length;
		const client = await smtp(sink.port);
		await client.say('EHLO test');
		await client.say(`AUTH PLAIN ${b64(`\0${USER}\0${PASSWORD}`)}`);
		await client.say('MAIL FROM:<n8n@example.com>');
		await client.say('RCPT TO:<payroll@example.com>');
		await client.say('DATA');
		expect(await client.say(`Subject: big\r\n\r\n${'x'.repeat(3000)}\r\n.`)).toMatch(/^552 /);
		await client.say('MAIL FROM:<n8n@example.com>');
		await client.say('RCPT TO:<payroll@example.com>');
		await client.say('DATA');
		expect(await client.say('Subject: small\r\n\r\nok\r\n.')).toMatch(/^250 /);
		client.close();
		expect(handed.slice(before).map((mail) => mail.subject)).toEqual(['small']);
	});

	it('decodes RFC 2047 words, B and Q, and leaves plain text alone', () => {
		expect(decodeWords('=?utf-8?B?w6bDuMOl?= and =?ISO-8859-1?Q?=E6_=F8?=')).toBe('æøå and æ ø');
		expect(decodeWords('Incident (High): Fall – P1001')).toBe('Incident (High): Fall – P1001');
	});
});

/**
 * A mail sink for the demo and its test: the smallest SMTP server n8n's Send Email node (nodemailer) talks to, on
 * 127.0.0.1, with a login of its own (AUTH PLAIN and LOGIN, no TLS). It sends nothing on: every message it accepts,
 * whatever its recipients, is handed to `onMessage` (the demo puts it into its mailbox). Only what nodemailer and
 * ordinary clients use of RFC 5321 is here: EHLO/HELO, AUTH, MAIL, RCPT, DATA, RSET, NOOP, QUIT.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';

export interface SunkMail {
	/** The envelope: MAIL FROM and every RCPT TO. */
	from: string;
	to: string[];
	/** The message as sent (headers and body), dot-stuffing undone. */
	message: Buffer;
	/** Its Subject header, decoded. */
	subject: string;
}

export interface MailSink {
	host: string;
	port: number;
	/** The data of n8n's SMTP credential for this sink. */
	smtpCredential: Record<string, unknown>;
	/** Every message accepted so far, oldest first. */
	received: SunkMail[];
	close(): Promise<void>;
}

export interface MailSinkOptions {
	user: string;
	password: string;
	onMessage?: (mail: SunkMail) => void;
	/** Larger messages are refused (552); 50 MB by default, room for a weekly CSV file. */
	maxBytes?: number;
	port?: number;
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) as text. */
export function decodeWords(value: string): string {
	return value
		.replace(/\?=\s+=\?/g, '?==?')
		.replace(
			/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
			(_word, charset: string, encoding: string, text: string) => {
				const bytes =
					encoding.toUpperCase() === 'B'
						? Buffer.from(text, 'base64')
						: Buffer.from(
								text
									.replace(/_/g, ' ')
									.replace(/=([0-9A-Fa-f]{2})/g, (_hex, code: string) =>
										String.fromCharCode(parseInt(code, 16)),
									),
								'latin1',
							);
				return /^utf-?8$/i.test(charset) ? bytes.toString('utf8') : bytes.toString('latin1');
			},
		);
}

/** A header of a message (the first one by that name), unfolded and decoded; '' when absent. */
export function headerOf(message: Buffer, name: string): string {
	const text = message.toString('latin1');
	const end = text.search(/\r?\n\r?\n/);
	const unfolded = (end < 0 ? text : text.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
	const line = unfolded
		.split(/\r?\n/)
		.find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
	if (line === undefined) return '';
	// Header bytes are UTF-8 when not encoded (SMTPUTF8); encoded words decode from there.
	return decodeWords(Buffer.from(line.slice(name.length + 1).trim(), 'latin1').toString('utf8'));
}

/** `<address>` of a MAIL FROM / RCPT TO argument. */
const addressOf = (argument: string) => /<([^>]*)>/.exec(argument)?.[1] ?? argument.trim().split(/\s/)[0];

export async function startMailSink(options: MailSinkOptions): Promise<MailSink> {
	const maxBytes = options.maxBytes ?? 50 * 1024 * 1024;
	const received: SunkMail[] = [];
	const sockets = new Set<Socket>();

	const session = (socket: Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => socket.destroy());
		const reply = (line: string) => void socket.write(`${line}\r\n`);

		let authenticated = false;
		let from: string | undefined;
		let to: string[] = [];
		/** A step of AUTH LOGIN or of AUTH PLAIN without its initial response, awaiting the client's next line. */
		let awaiting: 'plain' | 'login-user' | 'login-password' | undefined;
		let loginUser = '';
		/** While DATA is read: the lines so far, their size, and whether it grew too large. */
		let data: { lines: Buffer[]; bytes: number; tooLarge: boolean } | undefined;
		let pending: Buffer = Buffer.alloc(0);

		const login = (user: string, password: string) => {
			authenticated = user === options.user && password === options.password;
			reply(authenticated ? '235 2.7.0 Authentication successful' : '535 5.7.8 Wrong user or password');
		};
		const plain = (encoded: string) => {
			const [, user = '', password = ''] = Buffer.from(encoded, 'base64').toString('utf8').split('\0');
			login(user, password);
		};
		const reset = () => {
			from = undefined;
			to = [];
		};

		const endOfData = () => {
			const { lines, tooLarge } = data!;
			data = undefined;
			if (tooLarge) {
				reset();
				return reply(`552 5.3.4 Message larger than ${maxBytes} bytes`);
			}
			const message = Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\r\n')]));
			const mail: SunkMail = { from: from ?? '', to, message, subject: headerOf(message, 'subject') };
			reset();
			received.push(mail);
			try {
				options.onMessage?.(mail);
			} catch (error) {
				return reply(`451 4.3.0 Not stored: ${error instanceof Error ? error.message : String(error)}`);
			}
			reply(`250 2.0.0 Stored as ${randomBytes(6).toString('hex')}`);
		};

		const command = (line: string) => {
			if (awaiting === 'plain') {
				awaiting = undefined;
				return plain(line);
			}
			if (awaiting === 'login-user') {
				awaiting = 'login-password';
				loginUser = Buffer.from(line, 'base64').toString('utf8');
				return reply('334 UGFzc3dvcmQ6');
			}
			if (awaiting === 'login-password') {
				awaiting = undefined;
				return login(loginUser, Buffer.from(line, 'base64').toString('utf8'));
			}
			const [verb = '', ...rest] = line.split(' ');
			const argument = rest.join(' ');
			switch (verb.toUpperCase()) {
				case 'EHLO':
					reset();
					return reply(
						[
							'250-localhost',
							'250-AUTH PLAIN LOGIN',
							`250-SIZE ${maxBytes}`,
							'250-8BITMIME',
							'250 SMTPUTF8',
						].join('\r\n'),
					);
				case 'HELO':
					reset();
					return reply('250 localhost');
				case 'AUTH': {
					const [mechanism = '', initial] = argument.split(' ');
					if (mechanism.toUpperCase() === 'PLAIN') {
						if (initial) return plain(initial);
						awaiting = 'plain';
						return reply('334 ');
					}
					if (mechanism.toUpperCase() === 'LOGIN') {
						if (initial) {
							loginUser = Buffer.from(initial, 'base64').toString('utf8');
							awaiting = 'login-password';
							return reply('334 UGFzc3dvcmQ6');
						}
						awaiting = 'login-user';
						return reply('334 VXNlcm5hbWU6');
					}
					return reply('504 5.5.4 Only PLAIN and LOGIN');
				}
				case 'MAIL':
					if (!authenticated) return reply('530 5.7.0 Log in first (AUTH)');
					if (!/^FROM:/i.test(argument)) return reply('501 5.5.4 MAIL FROM:<address>');
					reset();
					from = addressOf(argument.slice(5));
					return reply('250 2.1.0 OK');
				case 'RCPT':
					if (from === undefined) return reply('503 5.5.1 MAIL first');
					if (!/^TO:/i.test(argument)) return reply('501 5.5.4 RCPT TO:<address>');
					to.push(addressOf(argument.slice(3)));
					return reply('250 2.1.5 OK');
				case 'DATA':
					if (to.length === 0) return reply('503 5.5.1 RCPT first');
					data = { lines: [], bytes: 0, tooLarge: false };
					return reply('354 End data with <CR><LF>.<CR><LF>');
				case 'RSET':
					reset();
					return reply('250 2.0.0 OK');
				case 'NOOP':
					return reply('250 2.0.0 OK');
				case 'QUIT':
					reply('221 2.0.0 Bye');
					socket.end();
					return;
				default:
					return reply('502 5.5.2 Command not implemented');
			}
		};

		const onLine = (line: Buffer) => {
			if (!data) return command(line.toString('utf8'));
			if (line.length === 1 && line[0] === 0x2e) return endOfData();
			// Dot-stuffing: a line starting with "." was sent with one more.
			const unstuffed = line[0] === 0x2e ? line.subarray(1) : line;
			data.bytes += unstuffed.length + 2;
			if (data.bytes > maxBytes) data.tooLarge = true;
			if (!data.tooLarge) data.lines.push(Buffer.from(unstuffed));
		};

		socket.on('data', (chunk: Buffer) => {
			pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
			for (let end = pending.indexOf(0x0a); end >= 0; end = pending.indexOf(0x0a)) {
				const line = pending.subarray(0, end > 0 && pending[end - 1] === 0x0d ? end - 1 : end);
				pending = pending.subarray(end + 1);
				onLine(line);
			}
		});
		reply('220 localhost ESMTP Field Ops demo mail sink');
	};

	const server = createServer(session);
	await new Promise<void>((listening, fail) => {
		server.once('error', fail);
		server.listen(options.port ?? 0, '127.0.0.1', () => listening());
	});
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		host: '127.0.0.1',
		port,
		smtpCredential: {
			user: options.user,
			password: options.password,
			host: '127.0.0.1',
			port,
			secure: false,
			// The sink offers no STARTTLS: plain SMTP on loopback.
			disableStartTls: true,
		},
		received,
		close: () =>
			new Promise<void>((closed) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => closed());
			}),
	};
}

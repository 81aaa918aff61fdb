/**
 * A private Dovecot IMAP server for the mail test, the demo and the benchmark: its own configuration, users,
 * Maildirs and log in one temporary folder, on a free loopback port, plain-text login (no TLS). Messages are
 * delivered as files into the Maildir (tmp → new, an atomic rename), which also works while Dovecot is down:
 * the way to have mail arrive during an outage. See /work/shared/notes/dovecot-on-this-machine.md.
 *
 * Dovecot runs as root here (its master sets the user of each session); the mail files belong to `nobody`
 * (uid 65534), never to root. Install it with `npx tsx scripts/n8n/system-packages.ts` (Debian: dovecot-imapd).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
	chmodSync,
	chownSync,
	closeSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from './run';
import { dovecotBinary } from './system-packages';

/** The user every mail session runs as (Dovecot refuses uid 0 for mail). */
const MAIL_UID = 65534;

export interface Mailbox {
	user: string;
	password: string;
	/** The user's Maildir (INBOX). */
	maildir: string;
	/** The data of n8n's IMAP credential for this mailbox (plain IMAP on localhost, no TLS). */
	imapCredential: Record<string, unknown>;
}

export interface Dovecot {
	host: string;
	port: number;
	/** The temporary folder with configuration, mail and logs. */
	dir: string;
	/** Adds a user with an empty INBOX (no restart needed: Dovecot re-reads the users file). */
	addUser(user: string, password: string): Mailbox;
	/** Delivers messages into a user's INBOX as new mail, atomically each; works while Dovecot is down. */
	deliver(user: string, ...messages: Buffer[]): void;
	/** How many times a user has logged in (from Dovecot's log): a client connected to the mailbox. */
	logins(user: string): number;
	/** How many messages of a user's INBOX are unread and read (from the Maildir's file names). */
	count(user: string): { unseen: number; seen: number };
	/** Ends the server and every session at once (the whole process group), as a crash or restart does. */
	stop(): Promise<void>;
	/** Starts it again (same port, same mail); resolves once it greets. */
	start(): Promise<void>;
	readonly running: boolean;
	/** The end of Dovecot's log, for failure messages. */
	logTail(lines?: number): string;
	/** Stops it and removes the folder. */
	close(): Promise<void>;
}

function config(dir: string, port: number): string {
	return `protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = dovecot-fieldops-${port}
log_path = ${dir}/log/dovecot.log
info_log_path = ${dir}/log/dovecot-info.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/conf/users
}
userdb {
  driver = passwd-file
  args = username_format=%u ${dir}/conf/users
}
mail_location = maildir:${dir}/mail/%u
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`;
}

/** Resolves once something on the port greets with `* OK` (Dovecot's IMAP banner). */
async function greeting(port: number, timeoutMs: number, exited: () => boolean): Promise<void> {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const greeted = await new Promise<boolean>((done) => {
			const socket = connect(port, '127.0.0.1');
			let text = '';
			const finish = (ok: boolean) => {
				socket.destroy();
				done(ok);
			};
			socket.setTimeout(1000, () => finish(false));
			socket.on('data', (chunk: Buffer) => {
				text += chunk.toString('latin1');
				if (text.includes('\n')) finish(text.startsWith('* OK'));
			});
			socket.on('error', () => finish(false));
		});
		if (greeted) return;
		if (exited() || Date.now() > until)
			throw new Error(`Dovecot did not greet on port ${port}${exited() ? ' (it exited)' : ''}`);
		await new Promise((resolveWait) => setTimeout(resolveWait, 50));
	}
}

// Groups this process started: ended if it exits without close().
const groups = new Set<number>();
process.on('exit', () => {
	for (const pid of groups) {
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {
			// Already gone.
		}
	}
});

/** Starts a private Dovecot in a temporary folder on a free port (or `port`). */
export async function startDovecot(options: { port?: number; binary?: string } = {}): Promise<Dovecot> {
	if (typeof process.getuid === 'function' && process.getuid() !== 0)
		throw new Error(
			'The private Dovecot of the mail test needs root here (its sessions run as nobody): run the tests as root, or in the project’s container.',
		);
	const binary = options.binary ?? dovecotBinary();
	if (spawnSync(binary, ['--version'], { stdio: 'ignore' }).status !== 0)
		throw new Error(
			`Dovecot is not installed (${binary}): run \`npx tsx scripts/n8n/system-packages.ts\` (Debian: apt-get install dovecot-imapd)`,
		);
	const dir = mkdtempSync(join(tmpdir(), 'fieldops-dovecot-'));
	// mkdtemp makes it 0700: Dovecot's auth process (user dovecot) and the sessions (nobody) must get through.
	chmodSync(dir, 0o755);
	const port = options.port ?? (await freePort());
	for (const sub of ['run', 'state', 'log', 'conf', 'mail']) mkdirSync(join(dir, sub), { recursive: true });
	chownSync(join(dir, 'mail'), MAIL_UID, MAIL_UID);
	const conf = join(dir, 'conf', 'dovecot.conf');
	writeFileSync(conf, config(dir, port));
	// Read by Dovecot's auth process, which runs as user dovecot.
	writeFileSync(join(dir, 'conf', 'users'), '', { mode: 0o644 });
	const users = new Map<string, Mailbox>();
	const logFile = join(dir, 'log', 'master.log');

	let child: ChildProcess | undefined;
	let exited = true;
	let exit: Promise<void> = Promise.resolve();

	const start = async () => {
		if (!exited) return;
		const logFd = openSync(logFile, 'a');
		// -F: in the foreground, so its PID is the group's and one signal ends master and sessions together.
		child = spawn(binary, ['-F', '-c', conf], { detached: true, stdio: ['ignore', logFd, logFd] });
		closeSync(logFd);
		exited = false;
		const pid = child.pid;
		if (pid) groups.add(pid);
		exit = new Promise((resolveExit) =>
			child?.once('exit', () => {
				exited = true;
				if (pid) groups.delete(pid);
				resolveExit();
			}),
		);
		await greeting(port, 15_000, () => exited);
	};

	const stop = async () => {
		if (exited || !child?.pid) return;
		try {
			process.kill(-child.pid, 'SIGTERM');
		} catch {
			// Already gone.
		}
		const pid = child.pid;
		const timer = setTimeout(() => {
			try {
				process.kill(-pid, 'SIGKILL');
			} catch {
				// Already gone.
			}
		}, 5_000);
		await exit;
		clearTimeout(timer);
	};

	const maildirOf = (user: string) => {
		const mailbox = users.get(user);
		if (!mailbox) throw new Error(`No mailbox ${user}: addUser() first`);
		return mailbox.maildir;
	};

	const instance: Dovecot = {
		host: '127.0.0.1',
		port,
		dir,
		get running() {
			return !exited;
		},
		addUser(user, password) {
			if (/[:\s/]/.test(user) || /[:\n]/.test(password))
				throw new Error(`Unusable user or password: ${user}`);
			const maildir = join(dir, 'mail', user);
			mkdirSync(maildir, { recursive: true });
			chownSync(maildir, MAIL_UID, MAIL_UID);
			for (const sub of ['cur', 'new', 'tmp']) {
				mkdirSync(join(maildir, sub), { recursive: true });
				chownSync(join(maildir, sub), MAIL_UID, MAIL_UID);
			}
			const line = `${user}:{PLAIN}${password}:${MAIL_UID}:${MAIL_UID}::\n`;
			writeFileSync(join(dir, 'conf', 'users'), line, { flag: 'a', mode: 0o644 });
			const mailbox: Mailbox = {
				user,
				password,
				maildir,
				imapCredential: {
					user,
					password,
					host: instance.host,
					port,
					secure: false,
					allowUnauthorizedCerts: false,
				},
			};
			users.set(user, mailbox);
			return mailbox;
		},
		deliver(user, ...messages) {
			const maildir = maildirOf(user);
			// All written first, then all renamed: a batch appears within a few milliseconds.
			const names = messages.map((message) => {
				const name = `${Date.now()}.M${randomBytes(6).toString('hex')}.fieldops`;
				writeFileSync(join(maildir, 'tmp', name), message);
				chownSync(join(maildir, 'tmp', name), MAIL_UID, MAIL_UID);
				return name;
			});
			for (const name of names) renameSync(join(maildir, 'tmp', name), join(maildir, 'new', name));
		},
		logins(user) {
			const log = join(dir, 'log', 'dovecot-info.log');
			if (!existsSync(log)) return 0;
			return readFileSync(log, 'utf8').split(`Login: user=<${user}>`).length - 1;
		},
		count(user) {
			const maildir = maildirOf(user);
			const fresh = readdirSync(join(maildir, 'new')).length;
			const current = readdirSync(join(maildir, 'cur'));
			// Maildir info ":2,<flags>": S is \Seen.
			const seen = current.filter((name) => /:2,[A-Z]*S/.test(name)).length;
			return { unseen: fresh + current.length - seen, seen };
		},
		start,
		stop,
		logTail(lines = 30) {
			const files = [join(dir, 'log', 'dovecot.log'), join(dir, 'log', 'dovecot-info.log'), logFile];
			return (
				files
					.filter((file) => existsSync(file))
					.map((file) => readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n'))
					.join('\n')
					.trim() || '(no log)'
			);
		},
		async close() {
			await stop();
			rmSync(dir, { recursive: true, force: true });
		},
	};
	try {
		await start();
	} catch (error) {
		const tail = instance.logTail();
		await instance.close();
		throw new Error(`${error instanceof Error ? error.message : String(error)}:\n${tail}`);
	}
	return instance;
}

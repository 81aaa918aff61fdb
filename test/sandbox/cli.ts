import { parseArgs } from 'node:util';

import { startSandbox } from './server';
import { variantByName } from './variant';

/**
 * `npm run sandbox -- [--port N] [--split] [--seed N] [--scale N] [--token-ttl SECONDS] [--variant default|alt]
 * [--latency-ms N] [--latency-per-kb N]`
 */
async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			port: { type: 'string', default: '0' },
			split: { type: 'boolean', default: false },
			seed: { type: 'string' },
			scale: { type: 'string' },
			'token-ttl': { type: 'string' },
			host: { type: 'string', default: '127.0.0.1' },
			variant: { type: 'string', default: 'default' },
			'latency-ms': { type: 'string' },
			'latency-per-kb': { type: 'string' },
		},
	});
	const number = (name: string, value: string | undefined) => {
		if (value === undefined) return undefined;
		const parsed = Number(value);
		if (!Number.isInteger(parsed) || parsed < 0)
			throw new Error(`--${name} must be a whole number ≥ 0, got "${value}"`);
		return parsed;
	};
	const decimal = (name: string, value: string | undefined) => {
		if (value === undefined) return undefined;
		const parsed = Number(value);
		if (!Number.isFinite(parsed) || parsed < 0)
			throw new Error(`--${name} must be a number ≥ 0, got "${value}"`);
		return parsed;
	};
	const running = await startSandbox({
		port: number('port', values.port),
		split: values.split,
		seed: number('seed', values.seed),
		scale: number('scale', values.scale),
		tokenTtl: number('token-ttl', values['token-ttl']),
		host: values.host,
		variant: variantByName(values.variant).name,
		latencyMs: number('latency-ms', values['latency-ms']),
		latencyPerKb: decimal('latency-per-kb', values['latency-per-kb']),
	});
	const { sandbox: _state, close, ...info } = running;
	process.stdout.write(`${JSON.stringify(info)}\n`);
	const stop = () => {
		close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});

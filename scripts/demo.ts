/**
 * `npm run demo`: for now, starts the sandbox and says how to point n8n at it. (The full demo — real n8n with
 * the package installed, a credential and the example workflows — comes with the real-n8n work.)
 */
import { startSandbox } from '../test/sandbox/server';

async function main(): Promise<void> {
	const sandbox = await startSandbox({ port: Number(process.env.SANDBOX_PORT ?? 0) });
	const admin = sandbox.clients.find((c) => c.administrator) ?? sandbox.clients[0];
	console.log(`Field Ops sandbox is running (Ctrl-C stops it).

  Core API URL          ${sandbox.coreUrl}
  Reporting API URL     ${sandbox.reportingUrl}
  Token Server URL      ${sandbox.identityUrl}
  Machine-State API URL ${sandbox.machineStateUrl}
  Client ID             ${admin.clientId}
  Client Secret         ${admin.clientSecret}

Create a "Field Ops OAuth2 API" credential in n8n with these values.
Not yet part of the demo: starting n8n itself with the package and the example workflows.`);
	const stop = () => void sandbox.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

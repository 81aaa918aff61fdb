/**
 * A language model for an AI Agent in real n8n, without the internet: an OpenAI-compatible chat endpoint on
 * localhost (n8n's OpenAI Chat Model with the credential's Base URL pointed here). Its first answer calls the one
 * tool it is offered with the arguments the test gives; once a tool result came back, it answers in words.
 * It keeps every request, so a test can read what the agent told the model (the tool's description and schema).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface ChatRequest {
	stream?: boolean;
	messages?: Array<{ role?: string }>;
	tools?: Array<{ function?: { name?: string; description?: string; parameters?: unknown } }>;
}

export interface FakeModel {
	/** The Base URL for n8n's OpenAI credential (`http://localhost:<port>/v1`). */
	url: string;
	requests: ChatRequest[];
	close(): Promise<void>;
}

const body = (request: IncomingMessage) =>
	new Promise<string>((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		request.on('error', reject);
	});

function answer(
	response: ServerResponse,
	chat: ChatRequest,
	message: Record<string, unknown>,
	finish: string,
) {
	const base = { id: `chatcmpl-${Date.now()}`, created: Math.floor(Date.now() / 1000), model: 'fake-model' };
	if (!chat.stream) {
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end(
			JSON.stringify({
				...base,
				object: 'chat.completion',
				choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
				usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
			}),
		);
		return;
	}
	const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
		`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
	const toolCalls = (message.tool_calls as Array<Record<string, unknown>> | undefined)?.map(
		(call, index) => ({
			index,
			...call,
		}),
	);
	response.writeHead(200, { 'content-type': 'text/event-stream' });
	response.write(
		chunk(
			{
				role: 'assistant',
				content: message.content ?? null,
				...(toolCalls ? { tool_calls: toolCalls } : {}),
			},
			null,
		),
	);
	response.write(chunk({}, finish));
	response.end('data: [DONE]\n\n');
}

/** Starts the model; `toolArguments` is what it "decides" to give the tool. */
export async function startFakeModel(toolArguments: Record<string, unknown>): Promise<FakeModel> {
	const requests: ChatRequest[] = [];
	const server = createServer((request, response) => {
		void (async () => {
			const text = await body(request);
			if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
				response.writeHead(404, { 'content-type': 'application/json' });
				response.end(JSON.stringify({ error: { message: `no ${request.method} ${request.url} here` } }));
				return;
			}
			const chat = JSON.parse(text) as ChatRequest;
			requests.push(chat);
			const toolAnswered = (chat.messages ?? []).some((message) => message.role === 'tool');
			const tool = chat.tools?.[0]?.function?.name;
			if (toolAnswered || !tool) {
				answer(response, chat, { content: 'These are the work orders of the project.' }, 'stop');
				return;
			}
			answer(
				response,
				chat,
				{
					content: null,
					tool_calls: [
						{
							id: 'call_1',
							type: 'function',
							function: { name: tool, arguments: JSON.stringify(toolArguments) },
						},
					],
				},
				'tool_calls',
			);
		})().catch((error: unknown) => {
			response.writeHead(500);
			response.end(String(error));
		});
	});
	// By host name: the name n8n's SSRF protection allows in these suites.
	await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://localhost:${port}/v1`,
		requests,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

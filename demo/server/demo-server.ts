/**
 * The demo MCP server itself — its tools, resources and prompts — built with
 * the official server SDK and served through its web-standard handler
 * (`Request` in, `Response` out). No Node built-ins: `server.ts` serves it over
 * `node:http` (`npm start`, the tests), and the static demo runs the very same
 * definitions inside the browser, in a Service Worker (`demo/src/demo-sw.ts`),
 * so the two demos cannot drift apart.
 *
 * Its tools exercise every part of the kit: argument kinds, nested forms,
 * progress and cancel, logging, structured output, media, a destructive tool,
 * multi round-trip elicitation (form, URL), sampling, roots, resources (with
 * update subscriptions and completions for the note template), prompts (with a
 * completable argument) and list changes announced over `subscriptions/listen`.
 */
import {
  acceptedContent,
  completable,
  createMcpHandler,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  McpServer,
  ResourceTemplate,
  type CallToolResult,
  type InputRequiredResult,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { CHART_HTML, CHART_URI, chartPoints, type Metric } from './apps.js';
import { base64, beepWav, gradientPng } from './media.js';

/** A text result. */
export const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
/** A tool schema from plain JSON Schema (the SDK's JSON-Schema typing is narrower than real schemas). */
const schema = (json: Record<string, unknown>) => fromJsonSchema(json as never);
/** An object schema with these properties (and `required`, and any other keywords). */
export const object = (properties: Record<string, unknown>, required: string[] = [], extra: Record<string, unknown> = {}) =>
  schema({ type: 'object', properties, ...(required.length ? { required } : {}), ...extra });

const png = base64(gradientPng(64));
const wav = base64(beepWav(300));

/** Waits `ms` milliseconds; rejects with the signal's reason when it aborts. */
export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** What the demo server remembers between requests (per process, or per Service Worker). */
export interface DemoState {
  bonus: boolean;
  notes: Map<string, string>;
  /** Views the chart app counted (`count_chart_view`). */
  chartViews?: number;
  /** Announces a tool-list change on open subscriptions/listen streams. */
  notifyToolsChanged: () => void;
  /** Announces a change of one resource to the streams subscribed to it. */
  notifyResourceUpdated: (uri: string) => void;
  /** Announces a change of the resource list. */
  notifyResourcesChanged: () => void;
}

/** Programming languages the `review_code` prompt completes. */
export const LANGUAGES = ['c', 'cpp', 'go', 'haskell', 'java', 'javascript', 'kotlin', 'python', 'ruby', 'rust', 'scala', 'swift', 'typescript'];

/** One server instance (the handler builds one per request) over the shared state. */
export function buildServer(state: DemoState, extensions?: Record<string, object>): McpServer {
  const server = new McpServer(
    { name: 'mcp-web-elements demo', version: '1.0.0', title: 'mcp-web-elements demo server' },
    {
      instructions: 'A demo server for mcp-web-elements. Try create_ticket, plan_trip or book_table.',
      capabilities: { logging: {}, resources: { subscribe: true, listChanged: true }, ...(extensions ? { extensions } : {}) } as never,
      cacheHints: {
        'tools/list': { ttlMs: 30_000, cacheScope: 'public' },
        'prompts/list': { ttlMs: 30_000, cacheScope: 'public' },
        'resources/list': { ttlMs: 30_000, cacheScope: 'public' },
        'resources/templates/list': { ttlMs: 30_000, cacheScope: 'public' },
      } as never,
    },
  );

  // 1. A plain tool with several argument kinds.
  server.registerTool(
    'create_ticket',
    {
      title: 'Create a ticket',
      description: 'Files a support ticket. Shows strings, numbers, booleans, enums, dates and emails.',
      inputSchema: object(
        {
          title: { type: 'string', title: 'Title', minLength: 3, maxLength: 80, description: 'One line summary' },
          priority: { type: 'string', title: 'Priority', enum: ['low', 'medium', 'high'], default: 'medium' },
          estimate: { type: 'integer', title: 'Estimate (hours)', minimum: 1, maximum: 40 },
          urgent: { type: 'boolean', title: 'Urgent', default: false },
          due: { type: 'string', format: 'date', title: 'Due date' },
          reporter: { type: 'string', format: 'email', title: 'Reporter email' },
          labels: { type: 'array', title: 'Labels', items: { type: 'string' } },
        },
        ['title', 'priority'],
      ),
    },
    async (args: any) => {
      const id = `T-${1000 + Math.floor(Math.random() * 9000)}`;
      return {
        content: [{ type: 'text', text: `Created ${id}: ${args.title} (${args.priority}${args.urgent ? ', urgent' : ''})` }],
        structuredContent: { id, ...args },
      } as CallToolResult;
    },
  );

  // 2. Nested objects, arrays of objects and a titled enum.
  server.registerTool(
    'plan_trip',
    {
      title: 'Plan a trip',
      description: 'Plans a multi-stop trip. Shows nested objects, arrays of objects and a titled enum.',
      inputSchema: object(
        {
          traveller: {
            type: 'object',
            title: 'Traveller',
            properties: { name: { type: 'string', title: 'Name' }, age: { type: 'integer', title: 'Age', minimum: 0 } },
            required: ['name'],
          },
          stops: {
            type: 'array',
            title: 'Stops',
            minItems: 1,
            items: {
              type: 'object',
              properties: { city: { type: 'string', title: 'City' }, nights: { type: 'integer', title: 'Nights', minimum: 1, default: 1 } },
              required: ['city'],
            },
          },
          travelClass: {
            title: 'Class',
            oneOf: [
              { const: 'economy', title: 'Economy' },
              { const: 'business', title: 'Business' },
              { const: 'first', title: 'First class' },
            ],
            default: 'economy',
          },
        },
        ['traveller', 'stops'],
      ),
    },
    async (args: any) => {
      const nights = (args.stops as { nights?: number }[]).reduce((sum, stop) => sum + (stop.nights ?? 1), 0);
      const route = (args.stops as { city: string }[]).map((stop) => stop.city).join(' → ');
      return text(`Trip for ${args.traveller.name}: ${route}, ${nights} night(s), ${args.travelClass ?? 'economy'}`);
    },
  );

  // 3. A slow tool with progress notifications (and log messages, for clients that ask) that can be cancelled.
  server.registerTool(
    'long_task',
    {
      title: 'Long task',
      description: 'Works for a while and reports progress; cancel it from the form.',
      inputSchema: object({
        steps: { type: 'integer', title: 'Steps', minimum: 1, maximum: 10_000, default: 10 },
        stepMs: { type: 'integer', title: 'Milliseconds per step', minimum: 0, maximum: 10_000, default: 500 },
      }),
    },
    async (args: any, ctx: any) => {
      const steps = args.steps ?? 10;
      const stepMs = args.stepMs ?? 500;
      const token = ctx.mcpReq._meta?.progressToken;
      await ctx.mcpReq.log('info', `long_task: ${steps} steps of ${stepMs} ms`);
      for (let i = 1; i <= steps; i++) {
        if (ctx.mcpReq.signal.aborted) return text(`cancelled at step ${i}`);
        if (stepMs > 0) {
          try {
            await sleep(stepMs, ctx.mcpReq.signal);
          } catch {
            return text(`cancelled at step ${i}`);
          }
        }
        if (token !== undefined) {
          await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps, message: `Step ${i} of ${steps}` } });
        }
        if (stepMs > 0) await ctx.mcpReq.log('debug', `long_task: step ${i} done`);
      }
      await ctx.mcpReq.log('notice', `long_task: finished ${steps} steps`);
      return text(`Finished ${steps} steps`);
    },
  );

  // 4. structuredContent with an outputSchema.
  server.registerTool(
    'get_weather',
    {
      title: 'Weather',
      description: 'Returns structured weather data described by an outputSchema.',
      inputSchema: object({ city: { type: 'string', title: 'City', default: 'Lisbon' } }, ['city']),
      outputSchema: schema({
        type: 'object',
        properties: {
          city: { type: 'string' },
          temperature: { type: 'number', description: 'Celsius' },
          conditions: { type: 'string', enum: ['sunny', 'cloudy', 'rain'] },
        },
        required: ['city', 'temperature', 'conditions'],
      }),
      annotations: { readOnlyHint: true },
    },
    async (args: any) => {
      const seed = [...String(args.city)].reduce((sum, c) => sum + c.charCodeAt(0), 0);
      const data = { city: args.city, temperature: 10 + (seed % 20), conditions: (['sunny', 'cloudy', 'rain'] as const)[seed % 3]! };
      return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data } as CallToolResult;
    },
  );

  // 5. Image, audio and a resource link.
  server.registerTool(
    'make_media',
    { title: 'Media', description: 'Returns an image, an audio clip and a link to a resource.', inputSchema: object({}), annotations: { readOnlyHint: true } },
    async () =>
      ({
        content: [
          { type: 'text', text: 'Here is a gradient, a beep and a note.' },
          { type: 'image', data: png, mimeType: 'image/png' },
          { type: 'audio', data: wav, mimeType: 'audio/wav' },
          { type: 'resource_link', uri: 'demo://notes/welcome', name: 'welcome', title: 'Welcome note', mimeType: 'text/plain', description: 'A note you can read' },
        ],
      }) as CallToolResult,
  );

  // 6. A destructive tool (the form asks for confirmation first).
  server.registerTool(
    'delete_notes',
    {
      title: 'Delete notes',
      description: 'Deletes every note. Marked destructive.',
      inputSchema: object({ confirmPhrase: { type: 'string', title: 'Type "delete"' } }),
      annotations: { destructiveHint: true, readOnlyHint: false },
      // For the model (the user) only: MCP Apps may not call it (ext-apps "Visibility").
      _meta: { ui: { visibility: ['model'] } },
    },
    async () => {
      const count = state.notes.size;
      state.notes.clear();
      return text(`Deleted ${count} note(s)`);
    },
  );

  // 7. A booking that asks the user twice through form elicitation, carrying requestState.
  server.registerTool(
    'book_table',
    {
      title: 'Book a table',
      description: 'Books a restaurant table; asks for details in two rounds.',
      inputSchema: object({ restaurant: { type: 'string', title: 'Restaurant', default: 'Casa Lisboa' } }, ['restaurant']),
    },
    async (args: any, ctx: any): Promise<CallToolResult | InputRequiredResult> => {
      const raw = ctx.mcpReq.requestState?.() as unknown;
      const saved = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { date: string; guests: number } | undefined;
      if (!saved) {
        const view = inputResponse(ctx.mcpReq.inputResponses, 'when');
        if (view.kind === 'elicit' && view.action !== 'accept') return text(`Booking ${view.action === 'decline' ? 'declined' : 'cancelled'}.`);
        const when = acceptedContent<{ date: string; guests: number }>(ctx.mcpReq.inputResponses, 'when');
        if (!when) {
          return inputRequired({
            inputRequests: {
              when: inputRequired.elicit({
                message: `When would you like to eat at ${args.restaurant}?`,
                requestedSchema: {
                  type: 'object',
                  properties: {
                    date: { type: 'string', format: 'date', title: 'Date' },
                    guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 12, default: 2 },
                  },
                  required: ['date', 'guests'],
                },
              }),
            },
          });
        }
        return inputRequired({
          inputRequests: {
            seating: inputRequired.elicit({
              message: `A table for ${when.guests} on ${when.date}. Any preferences?`,
              requestedSchema: {
                type: 'object',
                properties: {
                  area: { type: 'string', title: 'Area', oneOf: [{ const: 'indoor', title: 'Indoors' }, { const: 'terrace', title: 'Terrace' }], default: 'indoor' },
                  diet: { type: 'array', title: 'Dietary needs', items: { type: 'string', enum: ['vegetarian', 'vegan', 'gluten-free'] } },
                  contact: { type: 'string', format: 'email', title: 'Contact email' },
                },
                required: ['area'],
              },
            }),
          },
          requestState: JSON.stringify(when),
        });
      }
      const view = inputResponse(ctx.mcpReq.inputResponses, 'seating');
      if (view.kind === 'elicit' && view.action !== 'accept') return text(`Booking ${view.action === 'decline' ? 'declined' : 'cancelled'}.`);
      const seating = acceptedContent<{ area: string; diet?: string[]; contact?: string }>(ctx.mcpReq.inputResponses, 'seating');
      const diet = seating?.diet?.length ? `, ${seating.diet.join('/')}` : '';
      return text(`Booked ${args.restaurant} for ${saved.guests} on ${saved.date}, ${seating?.area ?? 'indoor'}${diet}.`);
    },
  );

  // 8. URL-mode elicitation.
  server.registerTool(
    'connect_account',
    { title: 'Connect account', description: 'Asks you to approve access on an external page (URL mode).', inputSchema: object({}) },
    async (_args: any, ctx: any): Promise<CallToolResult | InputRequiredResult> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'approve');
      if (view.kind === 'elicit') return text(view.action === 'accept' ? 'Account connected.' : `Not connected (${view.action}).`);
      return inputRequired({
        inputRequests: { approve: inputRequired.elicitUrl({ message: 'Approve the demo app on the provider page.', url: 'https://auth.example.com/approve?app=mcp-web-elements-demo' }) },
      });
    },
  );

  // 9. Sampling.
  server.registerTool(
    'summarize',
    { title: 'Summarize', description: 'Asks your model (through the client) to summarise a text.', inputSchema: object({ text: { type: 'string', title: 'Text', default: 'MCP lets models use tools.' } }, ['text']) },
    async (args: any, ctx: any): Promise<CallToolResult | InputRequiredResult> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'summary');
      if (view.kind === 'sampling') {
        const content = (view as any).result.content;
        return text(`Summary: ${Array.isArray(content) ? content.map((c: any) => c.text).join(' ') : content.text}`);
      }
      return inputRequired({
        inputRequests: {
          summary: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: `Summarise in one sentence: ${args.text}` } }],
            systemPrompt: 'You are terse.',
            maxTokens: 60,
            modelPreferences: { hints: [{ name: 'small' }], speedPriority: 0.8 },
          }),
        },
      });
    },
  );

  // 10. Roots.
  server.registerTool(
    'list_workspace',
    { title: 'Workspace roots', description: 'Reads the roots your client shares.', inputSchema: object({}) },
    async (_args: any, ctx: any): Promise<CallToolResult | InputRequiredResult> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'roots');
      if (view.kind === 'roots') {
        const roots = view.roots as { uri: string; name?: string }[];
        return text(roots.length ? `Roots: ${roots.map((r) => r.name ?? r.uri).join(', ')}` : 'No roots shared.');
      }
      return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    },
  );

  // 10b. Every elicitation field kind and enum shape in one form (client/elicitation "Requested Schema").
  server.registerTool(
    'survey',
    { title: 'Survey', description: 'Asks one form with every kind of elicitation field.', inputSchema: object({}) },
    async (_args: any, ctx: any): Promise<CallToolResult | InputRequiredResult> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'survey');
      if (view.kind === 'elicit') {
        if (view.action !== 'accept') return text(`survey ${view.action}`);
        return { content: [{ type: 'text', text: `survey answers: ${JSON.stringify(view.content)}` }], structuredContent: view.content } as CallToolResult;
      }
      return inputRequired({
        inputRequests: {
          survey: inputRequired.elicit({
            message: 'A short survey about your setup.',
            requestedSchema: {
              type: 'object',
              properties: {
                name: { type: 'string', title: 'Name', minLength: 2, maxLength: 40, default: 'Ada' },
                email: { type: 'string', format: 'email', title: 'Email' },
                homepage: { type: 'string', format: 'uri', title: 'Homepage' },
                since: { type: 'string', format: 'date', title: 'Using MCP since' },
                callback: { type: 'string', format: 'date-time', title: 'Call me back at' },
                rating: { type: 'number', title: 'Rating', minimum: 0, maximum: 5, default: 4.5 },
                seats: { type: 'integer', title: 'Seats', minimum: 1, maximum: 50 },
                newsletter: { type: 'boolean', title: 'Newsletter', default: false },
                editor: { type: 'string', title: 'Editor', enum: ['vim', 'emacs', 'vscode'] },
                os: { type: 'string', title: 'Operating system', oneOf: [{ const: 'linux', title: 'Linux' }, { const: 'mac', title: 'macOS' }, { const: 'win', title: 'Windows' }] },
                plan: { type: 'string', title: 'Plan', enum: ['p-free', 'p-pro'], enumNames: ['Free', 'Professional'] },
                languages: { type: 'array', title: 'Languages', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['ts', 'py', 'go', 'rust'] } },
                topics: {
                  type: 'array',
                  title: 'Topics',
                  items: { anyOf: [{ const: 't-auth', title: 'Authorization' }, { const: 't-ui', title: 'User interface' }, { const: 't-perf', title: 'Performance' }] },
                },
              },
              required: ['name', 'email', 'os', 'languages'],
            } as never,
          }),
        },
      });
    },
  );

  // 10b'. A required yes/no without a default and whole-number fields (client/elicitation "Requested Schema").
  server.registerTool(
    'order_prints',
    { title: 'Order prints', description: 'Asks how many prints to make and whether to accept the print terms.', inputSchema: object({}) },
    async (_args: any, ctx: any): Promise<CallToolResult | InputRequiredResult> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'order');
      if (view.kind === 'elicit') {
        if (view.action !== 'accept') return text(`order ${view.action}`);
        return { content: [{ type: 'text', text: `order: ${JSON.stringify(view.content)}` }], structuredContent: view.content } as CallToolResult;
      }
      return inputRequired({
        inputRequests: {
          order: inputRequired.elicit({
            message: 'How many prints?',
            requestedSchema: {
              type: 'object',
              properties: {
                copies: { type: 'integer', title: 'Copies', minimum: 1, maximum: 20 },
                spares: { type: 'integer', title: 'Spare copies', minimum: 0 },
                glossy: { type: 'boolean', title: 'Glossy paper' },
                terms: { type: 'boolean', title: 'Accept the print terms' },
              },
              required: ['copies', 'terms'],
            } as never,
          }),
        },
      });
    },
  );

  // 10c. Two input requests in one round: a form and the roots.
  server.registerTool(
    'onboard',
    { title: 'Onboard', description: 'Asks for a nickname and your roots in the same round.', inputSchema: object({}) },
    async (_args: any, ctx: any): Promise<CallToolResult | InputRequiredResult> => {
      const nick = inputResponse(ctx.mcpReq.inputResponses, 'nickname');
      const roots = inputResponse(ctx.mcpReq.inputResponses, 'workspace');
      if (nick.kind === 'elicit' && roots.kind === 'roots') {
        const name = nick.action === 'accept' ? String((nick.content as { nickname?: string })?.nickname) : `(${nick.action})`;
        return text(`Welcome ${name}; ${roots.roots.length} root(s) shared.`);
      }
      return inputRequired({
        inputRequests: {
          nickname: inputRequired.elicit({ message: 'Pick a nickname.', requestedSchema: { type: 'object', properties: { nickname: { type: 'string', title: 'Nickname' } }, required: ['nickname'] } }),
          workspace: inputRequired.listRoots(),
        },
      });
    },
  );

  // 11. List changes: toggles a tool and announces it on subscriptions/listen.
  server.registerTool(
    'toggle_bonus',
    { title: 'Toggle bonus tool', description: 'Adds or removes the "bonus" tool; open tool lists refresh.', inputSchema: object({}) },
    async () => {
      state.bonus = !state.bonus;
      state.notifyToolsChanged();
      return text(state.bonus ? 'The bonus tool is now available.' : 'The bonus tool was removed.');
    },
  );
  if (state.bonus) {
    server.registerTool('bonus', { title: 'Bonus', description: 'Appears after toggle_bonus.', inputSchema: object({}) }, async () => text('🎉 bonus'));
  }

  // 12. An MCP App (ext-apps): an interactive chart whose buttons call back the server.
  const chart = (metric: Metric, days: number): CallToolResult => {
    const points = chartPoints(metric, days);
    return {
      content: [{ type: 'text', text: `${metric} for ${days} days: ${points.map((p) => p.value).join(', ')}` }],
      structuredContent: { metric, points },
    } as CallToolResult;
  };
  const chartInput = object({
    metric: { type: 'string', title: 'Metric', enum: ['visitors', 'sales'], default: 'visitors' },
    days: { type: 'integer', title: 'Days', minimum: 3, maximum: 14, default: 7 },
  });
  server.registerTool(
    'show_chart',
    {
      title: 'Chart',
      description: 'Shows an interactive chart (an MCP App); its buttons fetch other data and save a note.',
      inputSchema: chartInput,
      annotations: { readOnlyHint: true },
      _meta: { ui: { resourceUri: CHART_URI } },
    },
    async (args: any) => chart(args.metric ?? 'visitors', args.days ?? 7),
  );
  server.registerTool(
    'chart_data',
    {
      title: 'Chart data',
      description: 'Data for the chart app (called by the app, not the model).',
      inputSchema: chartInput,
      annotations: { readOnlyHint: true },
      _meta: { ui: { resourceUri: CHART_URI, visibility: ['app'] } },
    },
    async (args: any) => chart(args.metric ?? 'visitors', args.days ?? 7),
  );
  server.registerTool(
    'save_chart_note',
    {
      title: 'Save chart note',
      description: 'Saves the chart total as a note, replacing one of the same name (called by the app; the host asks the user every time).',
      inputSchema: object({ metric: { type: 'string' }, total: { type: 'number' } }, ['metric', 'total']),
      // It overwrites a note: destructive, so the host asks every time, even for a tool of the app's own.
      annotations: { readOnlyHint: false, destructiveHint: true },
      _meta: { ui: { visibility: ['app'] } },
    },
    async (args: any) => {
      const name = `chart-${String(args.metric).slice(0, 20)}`;
      state.notes.set(name, `Total ${args.metric}: ${args.total}`);
      return text(`Saved note ${name}: total ${args.metric} ${args.total}`);
    },
  );
  server.registerTool(
    'count_chart_view',
    {
      title: 'Count a chart view',
      description: 'Counts that the chart was looked at (called by the app: its own API, not destructive, so it runs without asking).',
      inputSchema: object({ metric: { type: 'string' } }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
      _meta: { ui: { visibility: ['app'] } },
    },
    async (args: any) => {
      state.chartViews = (state.chartViews ?? 0) + 1;
      return { ...text(`Chart views: ${state.chartViews}`), structuredContent: { views: state.chartViews, metric: String(args.metric ?? '') } } as CallToolResult;
    },
  );
  server.registerResource('chart-app', CHART_URI, { title: 'Chart app', mimeType: 'text/html;profile=mcp-app', description: 'The interactive chart of show_chart' }, async (uri: URL) => ({
    contents: [{ uri: uri.href, mimeType: 'text/html;profile=mcp-app', text: CHART_HTML, _meta: { ui: { prefersBorder: true } } }],
  }));

  // 13. Writes a note: announces the change to streams subscribed to it (resources "Subscriptions").
  server.registerTool(
    'edit_note',
    {
      title: 'Edit a note',
      description: 'Writes a note (demo://notes/<name>); subscribers of that resource are told it changed.',
      inputSchema: object(
        {
          name: { type: 'string', title: 'Name', pattern: '^[a-z0-9-]{1,40}$', default: 'todo' },
          text: { type: 'string', title: 'Text', maxLength: 2000 },
        },
        ['name', 'text'],
      ),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args: any) => {
      const added = !state.notes.has(args.name);
      state.notes.set(args.name, args.text);
      state.notifyResourceUpdated(`demo://notes/${args.name}`);
      if (added) state.notifyResourcesChanged();
      return text(`Saved demo://notes/${args.name}`);
    },
  );

  // 14. A tool that takes a resource URI: the tool form completes it from the note template.
  server.registerTool(
    'show_note',
    {
      title: 'Show a note',
      description: 'Reads a note by its URI (completed from the demo://notes/{name} template).',
      inputSchema: object({ uri: { type: 'string', format: 'uri', title: 'Note URI', description: 'e.g. demo://notes/welcome' } }, ['uri']),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args: any) => {
      const name = /^demo:\/\/notes\/(.+)$/.exec(String(args.uri))?.[1];
      const note = name === undefined ? undefined : state.notes.get(decodeURIComponent(name));
      return note === undefined ? { ...text(`No note at ${String(args.uri)}.`), isError: true } : text(note);
    },
  );

  // Resources, a template (whose name completes) and prompts (one argument completes).
  server.registerResource('readme', 'demo://readme', { title: 'Read me', mimeType: 'text/markdown', description: 'About this server' }, async (uri: URL) => ({
    contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '# Demo server\n\nTools, resources and prompts for mcp-web-elements.' }],
  }));
  server.registerResource('logo', 'demo://logo.png', { title: 'Logo', mimeType: 'image/png' }, async (uri: URL) => ({
    contents: [{ uri: uri.href, mimeType: 'image/png', blob: png }],
  }));
  server.registerResource(
    'note',
    new ResourceTemplate('demo://notes/{name}', {
      list: async () => ({ resources: [...state.notes.keys()].map((name) => ({ uri: `demo://notes/${name}`, name, mimeType: 'text/plain' })) }),
      complete: { name: (value: string) => [...state.notes.keys()].filter((name) => name.startsWith(value)) },
    }),
    { title: 'Note', mimeType: 'text/plain' },
    async (uri: URL, variables: Record<string, string | string[]>) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: state.notes.get(String(variables.name)) ?? `No note named ${String(variables.name)}.` }],
    }),
  );
  server.registerPrompt(
    'review_code',
    {
      title: 'Review code',
      description: 'Asks for a code review in a given language.',
      // zod, for the SDK's completable(): the language completes from LANGUAGES.
      argsSchema: z.object({
        language: completable(z.string().describe('Programming language'), (value: string) => LANGUAGES.filter((language) => language.startsWith(value.toLowerCase()))),
        code: z.string().describe('The code to review'),
      }) as never,
    },
    async (args: any) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Please review this ${args.language} code:\n\n${args.code}` } }] }),
  );
  return server;
}

/** What a host adds to the shared definitions (the Node server: the task tool, `./pipeline.ts`). */
export interface DemoExtras {
  /** Extensions the server declares (`capabilities.extensions`). */
  extensions?: Record<string, object>;
  /** Registers more on each server instance. */
  extend?: (server: McpServer) => void;
}

/** The demo server as a web-standard handler, and the state it keeps. */
export function createDemoHandler(extras: DemoExtras = {}): { handler: McpHttpHandler; state: DemoState } {
  const state: DemoState = {
    bonus: false,
    notes: new Map([
      ['welcome', 'Welcome to the mcp-web-elements demo!'],
      ['todo', 'Try the booking tool.'],
    ]),
    notifyToolsChanged: () => {},
    notifyResourceUpdated: () => {},
    notifyResourcesChanged: () => {},
  };
  const handler = createMcpHandler(() => {
    const server = buildServer(state, extras.extensions);
    extras.extend?.(server);
    return server;
  });
  state.notifyToolsChanged = () => handler.notify.toolsChanged();
  state.notifyResourceUpdated = (uri) => handler.notify.resourceUpdated(uri);
  state.notifyResourcesChanged = () => handler.notify.resourcesChanged();
  return { handler, state };
}

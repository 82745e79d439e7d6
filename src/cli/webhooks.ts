import type { Command } from 'commander';
import { collect } from './repeated-options.js';
import { DeliveriesRepository } from '../webhooks/deliveries.repository.js';
import { describeWebhookEvents } from '../webhooks/events.js';
import { parseHeaderArgument, validateSubscription, type ValidSubscription } from '../webhooks/subscription-input.js';
import { SubscriptionsRepository, type Subscription } from '../webhooks/subscriptions.repository.js';
import { cliContext, errOut, out, setExitCode, withStore } from './context.js';
import { listLimit } from './errors.js';
import { errorCode } from '../domain/errors.js';


/** To standard error, or to the caller's output when the command was forwarded into the service. */
function warn(line: string): void {
  errOut(line);
}

function fail(command: string, message: string): void {
  warn(`afford webhooks ${command}: ${message}\n`);
  setExitCode(2);
}

/** Header values may be credentials: the list shows their names only. */
function describeSubscription(s: Subscription): string {
  const headerNames = Object.keys(s.headers);
  return [
    `${s.subscriptionId}  ${s.active ? 'active     ' : 'deactivated'}  client ${s.clientId}`,
    `    url:     ${s.url}`,
    `    events:  ${s.events.join(', ')}`,
    `    headers: ${headerNames.length ? headerNames.join(', ') : '(none)'}`,
    `    signing: X-Signature${s.signed ? ' + X-Token-Signature (secret set)' : ' only (no secret)'}`,
  ].join('\n');
}

interface AddOptions {
  client: string;
  url: string;
  events: string;
  header: string[];
  secret?: string;
  json: boolean;
}

function parseAddOptions(opts: AddOptions): ValidSubscription | undefined {
  try {
    return validateSubscription({
      clientId: opts.client,
      url: opts.url,
      events: opts.events.split(','),
      headers: opts.header.map(parseHeaderArgument),
      secret: opts.secret,
    });
  } catch (err) {
    if (errorCode(err) !== 'SUBSCRIPTION_INVALID') throw err;
    fail('add', (err as Error).message);
    return undefined;
  }
}

/** A subscription the store refuses (a second active one to a URL): one line and exit code 2, as a bad argument. */
const refusal = (name: string) => (err: unknown): undefined => {
  if (errorCode(err) !== 'SUBSCRIPTION_INVALID') throw err;
  fail(name, (err as Error).message);
  return undefined;
};

export function registerWebhooks(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description("webhook subscriptions (the client console) and the delivery log")
    .addHelpText('after', `\nEvents:\n${describeWebhookEvents()}\n`);

  webhooks
    .command('add')
    .description('subscribe a URL of a client to some events; a new subscription is active')
    .requiredOption('--client <client_id>', 'the client whose customers the events concern')
    .requiredOption('--url <url>', 'where to POST the webhooks')
    .requiredOption('--events <list>', 'comma list of events (see below)')
    .option('--header <Name=value>', 'an extra header to send as given; repeat for several', collect, [])
    .option('--secret <secret>', 'signing secret, longer than 32 characters: adds X-Token-Signature (HMAC-SHA256 of the body)')
    .option('--json', 'print JSON for scripts', false)
    .addHelpText('after', `\nEvents:\n${describeWebhookEvents()}\n\nNot available: open banking connection completed (there is no connection service).\n`)
    .action(async (opts: AddOptions) => {
      const valid = parseAddOptions(opts);
      if (!valid) return;
      const ctx = cliContext();
      const added = await withStore(ctx, async (store) => {
        const repo = new SubscriptionsRepository(store);
        return { created: await repo.add(valid), known: await repo.clientKnown(valid.clientId) };
      }).catch(refusal('add'));
      if (!added) return;
      const { created, known } = added;
      if (opts.json) out(`${JSON.stringify({ subscription_id: created.subscriptionId, active: created.active })}\n`);
      else out(`added ${describeSubscription(created)}\n`);
      if (!known) warn(`note: client ${valid.clientId} has no API credentials and no customers yet\n`);
    });

  webhooks
    .command('list')
    .description('list subscriptions (header values and secrets are never shown)')
    .option('--client <client_id>', 'only this client')
    .action(async (opts: { client?: string }) => {
      const ctx = cliContext();
      const list = await withStore(ctx, (store) => new SubscriptionsRepository(store).list(opts.client));
      if (list.length === 0) out('no webhook subscriptions; add one with: afford webhooks add --client C --url U --events E\n');
      for (const s of list) out(`${describeSubscription(s)}\n`);
    });

  for (const [name, active] of [['activate', true], ['deactivate', false]] as const) {
    webhooks
      .command(name)
      .argument('<subscription_id>', 'as shown by afford webhooks list')
      .description(active ? 'send events to this subscription again' : 'stop sending events to this subscription, pending redeliveries included')
      .action(async (subscriptionId: string) => {
        const ctx = cliContext();
        const found = await withStore(ctx, (store) => new SubscriptionsRepository(store).setActive(subscriptionId, active)).catch(refusal(name));
        if (found === undefined) return;
        if (!found) fail(name, `no subscription ${subscriptionId}`);
        else out(`${subscriptionId} ${active ? 'activated' : 'deactivated'}\n`);
      });
  }

  webhooks
    .command('deliveries')
    .description('the delivery log, newest first: each delivery with every attempt (status, latency, next attempt)')
    .option('--failed', 'only deliveries that gave up', false)
    .option('--limit <n>', 'how many deliveries (up to 100,000)', listLimit, 50)
    .option('--json', 'print JSON for scripts', false)
    .action(async (opts: { failed: boolean; limit: number; json: boolean }) => {
      const { limit } = opts;
      const ctx = cliContext();
      const log = await withStore(ctx, (store) => new DeliveriesRepository(store).log({ onlyFailed: opts.failed, limit }));
      if (opts.json) {
        out(`${JSON.stringify(log)}\n`);
        return;
      }
      if (log.length === 0) out(opts.failed ? 'no failed deliveries\n' : 'no deliveries\n');
      for (const d of log) {
        const next = d.next_attempt_at ? `, next attempt ${d.next_attempt_at}` : '';
        out(
          `${d.delivery_id}  ${d.event}  ${d.status} after ${d.attempts} attempt(s)${next}\n    to ${d.url ?? '(subscription removed)'} (${d.subscription_id}), client ${d.client_id}${d.customer_id ? `, customer ${d.customer_id}` : ''}, created ${d.created_at}\n`,
        );
        for (const a of d.attemptLog) {
          const answer = a.status_code !== null ? `HTTP ${a.status_code}` : (a.error ?? 'no response');
          out(
            `    #${a.attempt} ${a.started_at}  ${answer.padEnd(20)} ${String(a.latency_ms).padStart(6)} ms  ${a.outcome}${a.next_attempt_at ? `, next ${a.next_attempt_at}` : ''}\n`,
          );
        }
      }
    });
}

import type { Command } from 'commander';
import { ClientsRepository } from '../clients/clients.repository.js';
import { ClientExistsError, ClientsService } from '../clients/clients.service.js';
import { cliContext, errOut, out, setExitCode, withStore } from './context.js';

/**
 * `afford clients create|list`. Works beside `afford serve` too: the command
 * is then forwarded to the service, so output goes through out().
 */
export function registerClients(program: Command): void {
  const clients = program.command('clients').description('API clients: the credentials that call the read API');
  clients
    .command('create')
    .description('create an API client and print its client_id and client_secret (shown once; only a hash is stored)')
    .requiredOption('--name <name>', 'a name for the client')
    .option('--id <client_id>', 'the client_id to use, e.g. the client id that the data carries (default: a new UUID)')
    .option('--rotate', 'when the client exists, give it a new secret instead of failing', false)
    .option('--json', 'print JSON for scripts', false)
    .action(async (opts: { name: string; id?: string; rotate: boolean; json: boolean }) => {
      const ctx = cliContext();
      await withStore(ctx, async (store) => {
        const service = new ClientsService(new ClientsRepository(store));
        try {
          const rotated = opts.rotate && opts.id ? await service.rotateSecret(opts.id, opts.name) : undefined;
          const issued = rotated ?? (await service.create(opts.name, opts.id));
          if (opts.json) out(`${JSON.stringify(issued)}\n`);
          else out(`client_id:     ${issued.client_id}\nclient_secret: ${issued.client_secret}\nname:          ${issued.name}\n(the secret is not shown again)\n`);
        } catch (err) {
          if (!(err instanceof ClientExistsError) && !(err instanceof RangeError)) throw err;
          errOut(`afford clients create: ${err.message}${err instanceof ClientExistsError ? ' (use --rotate for a new secret)' : ''}\n`);
          setExitCode(2);
        }
      });
    });
  clients
    .command('list')
    .description('list the API clients (never their secrets)')
    .option('--json', 'print JSON for scripts', false)
    .action(async (opts: { json: boolean }) => {
      const ctx = cliContext();
      const list = await withStore(ctx, (store) => new ClientsService(new ClientsRepository(store)).list());
      if (opts.json) {
        out(`${JSON.stringify(list.map((c) => ({ client_id: c.clientId, name: c.name, created_at: c.createdAt })))}\n`);
        return;
      }
      if (list.length === 0) out('no API clients; create one with: afford clients create --name NAME\n');
      for (const c of list) out(`${c.clientId.padEnd(38)} ${c.createdAt.padEnd(26)} ${c.name}\n`);
    });
}

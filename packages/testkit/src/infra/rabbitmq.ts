import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startProcess, type ManagedProcess } from './processes';
import { waitFor } from './wait';

export interface RabbitPorts {
  amqp: number;
  management: number;
  dist: number;
}

export const RABBIT_USER = 'guest';
export const RABBIT_PASSWORD = 'guest';

export function managementAuth(): string {
  return 'Basic ' + Buffer.from(`${RABBIT_USER}:${RABBIT_PASSWORD}`).toString('base64');
}

async function managementAnswers(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/overview`, { headers: { authorization: managementAuth() } });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * RabbitMQ from Debian's package, run as a project-local node: its own config, data, logs and Erlang
 * cookie under stateDir, every listener on loopback, the management plugin on for vhosts and queue depths.
 */
export async function startRabbitMq(stateDir: string, nodeName: string, ports: RabbitPorts): Promise<ManagedProcess> {
  const dir = join(stateDir, 'rabbitmq');
  mkdirSync(join(dir, 'mnesia'), { recursive: true });
  mkdirSync(join(dir, 'log'), { recursive: true });
  writeFileSync(join(dir, 'enabled_plugins'), '[rabbitmq_management].\n');
  writeFileSync(
    join(dir, 'rabbitmq.conf'),
    [
      `listeners.tcp.default = 127.0.0.1:${ports.amqp}`,
      'management.tcp.ip = 127.0.0.1',
      `management.tcp.port = ${ports.management}`,
      // guest may connect only from loopback, which is where every listener is.
      'loopback_users.guest = true',
      'log.console = false',
      // Quorum queues keep their write-ahead log's entries in memory until the WAL file rolls over; at the
      // default 512 MiB that is hundreds of MB of RSS growth on a small node (the soak, docs/reliability.md).
      // 16 MiB rolls over every few minutes under load and bounds that memory (docs/deployment.md).
      'raft.wal_max_size_bytes = 16777216',
      '',
    ].join('\n'),
  );
  const env = {
    HOME: dir,
    RABBITMQ_NODENAME: nodeName,
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_DIST_PORT: String(ports.dist),
    ERL_EPMD_ADDRESS: '127.0.0.1',
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
  };
  const proc = startProcess('rabbitmq', '/usr/lib/rabbitmq/bin/rabbitmq-server', [], {
    env,
    logDir: join(stateDir, 'logs'),
  });
  await waitFor('RabbitMQ', () => managementAnswers(ports.management), 90_000, proc.exitReason);
  return proc;
}

export async function rabbitAnswers(ports: RabbitPorts): Promise<boolean> {
  return managementAnswers(ports.management);
}

import express from 'express';
import type { AddressInfo } from 'node:net';
import { listen, listenApiAndOps } from './app';
import { closeServer } from './drain';

const HOST = '127.0.0.1';
const portOf = (s: { address(): unknown }) => (s.address() as AddressInfo).port;

// A service whose port is taken must fail at start with the reason, not listen nowhere and report a port,
// and must not keep the other port it had opened.
describe('listen', () => {
  it('resolves with a listening server, and rejects with EADDRINUSE when the port is taken', async () => {
    const first = await listen(express(), 0, HOST);
    expect(portOf(first)).toBeGreaterThan(0);
    await expect(listen(express(), portOf(first), HOST)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await closeServer(first);
  });

  it('listenApiAndOps: an ops port in use fails the start and frees the API port', async () => {
    const taken = await listen(express(), 0, HOST);
    const probe = await listen(express(), 0, HOST);
    const apiPort = portOf(probe);
    await closeServer(probe);
    await expect(
      listenApiAndOps(express(), express(), { port: apiPort, opsPort: portOf(taken), host: HOST }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    const again = await listen(express(), apiPort, HOST);
    await Promise.all([closeServer(again), closeServer(taken)]);
  });
});

// The side of a harness child process: it stops on SIGTERM as a service's own entry point does (runMain,
// the graceful stop of decision 0216), and goes when its parent does (a harness that died leaves no
// service running).
export function stopAsRunMainDoes(running: { stop(): Promise<unknown> }): void {
  process.on('disconnect', () => process.exit(0));
  process.once(
    'SIGTERM',
    () =>
      void running.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      ),
  );
}

/** A benchmark's command line: `--name`, and `--name value` or `--name=value`. */
export function cliOptions(argv: string[] = process.argv.slice(2)) {
  return {
    flag: (name: string): boolean => argv.includes(`--${name}`),
    opt: (name: string): string | undefined => {
      const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
      if (i < 0) return undefined;
      return argv[i]!.includes('=') ? argv[i]!.split('=').slice(1).join('=') : argv[i + 1];
    },
  };
}

/**
 * Runs a benchmark's `main` and exits with its code (0 when it answers none), or prints its error and exits
 * with 1: a benchmark's children and timers must not keep a finished run alive.
 */
export function runMain(main: () => Promise<number | void>): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}

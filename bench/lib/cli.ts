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

import { InvalidArgumentError, type Command } from 'commander';

/** An option's parser that gathers every value given, for the options that may be repeated (`--account`, `--header`). */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];

/**
 * Makes every option of `command` and its subcommands that takes one value
 * refuse a second: commander kept the last without a word, so `--client a
 * --client b` made a webhook for b, and `--events x --events y` subscribed
 * to y alone. Options gathered by `collect`, and flags, are left as they are.
 */
export function refuseRepeats(command: Command): void {
  for (const option of command.options) {
    if (option.isBoolean() || option.variadic || option.parseArg === collect) continue;
    const parse = option.parseArg;
    let given = false;
    option.argParser((value: string, previous: unknown) => {
      if (given) throw new InvalidArgumentError('It is given twice: give it once.');
      given = true;
      return parse ? parse(value, previous) : value;
    });
  }
  for (const sub of command.commands) refuseRepeats(sub);
}

/** What "now" is: the system clock in the service, a fixed instant in tests of "the last complete months". */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

// The two pure-JavaScript codecs that ship no types of their own: only what afford calls.

declare module 'snappyjs' {
  export function uncompress<T extends Uint8Array>(compressed: T, maxLength?: number): T;
  export function compress<T extends Uint8Array>(uncompressed: T): T;
}

declare module 'lz4js' {
  export function decompressBound(src: Uint8Array): number;
  export function decompressFrame(src: Uint8Array, dst: Uint8Array): number;
  export function decompress(src: Uint8Array, maxSize?: number): Uint8Array;
  export function compress(src: Uint8Array, maxSize?: number): Uint8Array;
}

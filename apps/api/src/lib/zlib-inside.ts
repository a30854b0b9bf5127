/**
 * What a zlib stream has inside (read from Node 20's zlib.js, the Node this project runs on):
 * its handle, driven synchronously as `zlib.*Sync` drive it, and where writes report to
 * (`[room left in the output, input left]`). Not public: RawInflater and ReusedGzip check it on
 * every call and fall back to the public sync functions when it is not there.
 */
export interface ZlibHandle {
  reset(): void;
  writeSync(
    flush: number,
    input: Buffer,
    inOff: number,
    inLen: number,
    out: Buffer,
    outOff: number,
    outLen: number,
  ): void;
}

export interface ZlibInside {
  _handle?: ZlibHandle | null;
  _writeState?: Uint32Array;
}

import { writeFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

/**
 * `<file>.br` and `<file>.gz` beside a built file, at the highest levels (too slow per request):
 * the server sends the one the browser accepts (server/src/http/web-app.ts).
 */
export function writeCompressedCopies(file: string, content: Buffer): void {
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(content, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length },
    }),
  );
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
}

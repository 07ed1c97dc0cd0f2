import sharp from 'sharp';
import { fieldError } from '../../http/errors.ts';

export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
const ACCEPTED = new Set(['png', 'jpeg', 'webp', 'gif', 'svg', 'avif']);

/**
 * A logo as the panel serves it: decoded and re-encoded by sharp (so only a real image is stored,
 * without metadata or scripts), at most 1024×512. Drawings (PNG, GIF, SVG) stay lossless PNG,
 * photos become WebP.
 */
export async function normaliseLogo(input: Buffer): Promise<{ image: Buffer; contentType: 'image/png' | 'image/webp' }> {
  try {
    const { format } = await sharp(input, { limitInputPixels: 40_000_000 }).metadata();
    if (!format || !ACCEPTED.has(format)) throw new Error(`unsupported format ${format}`);
    const pipeline = sharp(input, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize({ width: 1024, height: 512, fit: 'inside', withoutEnlargement: true });
    if (format === 'png' || format === 'gif' || format === 'svg') {
      return { image: await pipeline.png({ compressionLevel: 9 }).toBuffer(), contentType: 'image/png' };
    }
    return { image: await pipeline.webp({ quality: 90 }).toBuffer(), contentType: 'image/webp' };
  } catch {
    throw fieldError('image', 'tenant.logo_invalid');
  }
}

/** The public URL of a tenant's logo; the version makes browsers fetch a new upload at once. */
export const logoUrl = (kind: 'admin_logo' | 'admin_logo_footer', updatedAt: Date): string =>
  `/api/tenant/logo/${kind}?v=${updatedAt.getTime()}`;

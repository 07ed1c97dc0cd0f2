import sharp from 'sharp';
import type { Db } from '../../db/connection.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { initialsAvatarSvg } from './avatar.ts';
import { presentUser } from './present.ts';
import { deleteAvatar, findAvatar, findUserById, touchUser, upsertAvatar, type UserRow } from './queries.ts';

const STORED_PX = 512;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** Who may see whose picture: oneself, the admins of one's tenant, and super admins. */
const canSee = (viewer: UserRow, owner: UserRow): boolean =>
  viewer.id === owner.id || viewer.role === 'super_admin' || (viewer.role === 'host_admin' && viewer.tenant_id === owner.tenant_id);

export class AvatarService {
  private readonly db: Db;
  private readonly clock: Clock;

  constructor(db: Db, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  /** Any common image in, a square 512 px WebP stored; EXIF (location, camera) is dropped. */
  async upload(user: UserRow, input: Buffer): Promise<void> {
    let image: Buffer;
    try {
      image = await sharp(input, { limitInputPixels: 40_000_000 })
        .rotate()
        .resize(STORED_PX, STORED_PX, { fit: 'cover', position: 'attention' })
        .webp({ quality: 85 })
        .toBuffer();
    } catch {
      throw fieldError('image', 'avatar.invalid');
    }
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      await upsertAvatar(trx, user.id, image, now);
      await touchUser(trx, user.id, now);
    });
  }

  async remove(user: UserRow): Promise<void> {
    await deleteAvatar(this.db, user.id);
    await touchUser(this.db, user.id, this.clock.now());
  }

  /** The picture at the requested size, or generated initials when there is none. */
  async render(viewer: UserRow, ownerId: number, size: number): Promise<{ type: string; body: Buffer | string }> {
    const owner = ownerId === viewer.id ? viewer : await findUserById(this.db, ownerId);
    if (!owner || !canSee(viewer, owner)) throw new HttpError(404, 'http.not_found');
    const stored = await findAvatar(this.db, owner.id);
    if (!stored) return { type: 'image/svg+xml', body: initialsAvatarSvg(presentUser(owner).contact.display_name, size) };
    const body = await sharp(stored.image).resize(size, size).webp({ quality: 85 }).toBuffer();
    return { type: 'image/webp', body };
  }
}

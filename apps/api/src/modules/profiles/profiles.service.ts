/** Hunter profiles, posts, the merged profile feed and the hunters directory. */
import {
  type BannerInput,
  type DirectoryQuery,
  type FeedItem,
  type Hunter,
  type HunterCard,
  type HunterProfile,
  PAGE,
  type PageQuery,
  type Post,
  type PostCreateInput,
  PROFILE_MSG,
  type ProfileClaim,
} from '@bountyhunt/shared/profiles';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import { z } from 'zod';
import type { Actor, ServiceContext } from '../../context';
import type { Keyset } from '../../db/keyset';
import { badRequest, forbidden, notFound } from '../../errors';
import { isoFromKey, MICROSECOND_KEY_RE } from '../../lib/dates';
import { decodeCursor, pageLimit, takePage, type Page, type PageSize } from '../../lib/paging';
import { bountyExists, listHunterClaims, type HunterClaimRow } from '../bounties/bounties.read';
import { presentRankedClaim } from '../bounties/bounties.present';
import { getMedia } from '../media/media.service';
import type { UsersService } from '../users/users.service';
import {
  findHunterByHandle,
  findHunterById,
  findHunterWithHandleByUserId,
  type HunterWithHandle,
} from '../users/users.read';
import {
  hunterStats,
  insertPost,
  listDirectory,
  listPosts,
  type PostRowOut,
} from './profiles.repository';

export type { Page };

/** Page sizes of the profile lists (limits from the shared query schemas). */
const PROFILE_PAGE: PageSize = { default: PAGE.defaultLimit, max: PAGE.maxLimit };
const DIRECTORY_PAGE: PageSize = { default: PAGE.directoryDefaultLimit, max: PAGE.maxLimit };

const invalidCursor = () => badRequest(PROFILE_MSG.invalidCursor, 'INVALID_CURSOR');

/** A post or claim list's cursor: the kind of the last row, its microsecond key and id. */
const listCursor = z.object({
  k: z.enum(['p', 'c']),
  c: z
    .string()
    .regex(MICROSECOND_KEY_RE)
    .refine((ts) => !Number.isNaN(Date.parse(ts))),
  i: z.number().int().min(1).max(2_147_483_647),
});
type Kind = 'p' | 'c';
const keyOf = (kind: Kind, row: { ts: string; id: number }) => ({ k: kind, c: row.ts, i: row.id });

/** The directory's cursor: the last handle, lower case. */
const directoryCursor = z.object({ h: z.string().min(1).max(100) });

function cursorOf(raw: string | undefined, kinds: readonly Kind[]) {
  const c = decodeCursor(raw, listCursor, invalidCursor);
  if (c && !kinds.includes(c.k)) throw invalidCursor();
  return c;
}

function presentHunter(row: HunterWithHandle): Hunter {
  return {
    hunterId: row.id,
    userId: row.userId,
    handle: row.handle,
    stagename: row.stagename,
    bio: row.bio,
    banner: row.banner,
    picture: row.picture,
  };
}

function presentPost(row: PostRowOut): Post {
  return {
    postId: row.id,
    hunterId: row.hunter_id,
    bountyId: row.bounty_id,
    file: row.file,
    text: row.text,
    created: isoFromKey(row.ts),
  };
}

export class ProfilesService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly users: UsersService,
  ) {}

  private async hunterOr404(hunterId: number): Promise<HunterWithHandle> {
    const hunter = await findHunterById(this.ctx.db, hunterId);
    // A suspended account's profile is not shown (issue 17: its content is hidden).
    if (!hunter || hunter.suspendedAt)
      throw notFound(PROFILE_MSG.hunterNotFound, 'HUNTER_NOT_FOUND');
    return hunter;
  }

  private async actorHunter(actor: Actor): Promise<HunterWithHandle> {
    const hunter = hasRole(actor.role, ROLE.hunter)
      ? await findHunterWithHandleByUserId(this.ctx.db, actor.userId)
      : undefined;
    if (!hunter) throw forbidden(PROFILE_MSG.notHunter, 'NOT_HUNTER');
    return hunter;
  }

  /** A key from POST /media/*: uploaded by this user, public, not failed. */
  private async ownMedia(actor: Actor, key: string) {
    const info = await getMedia(this.ctx, key);
    if (!info || info.ownerId !== actor.userId || info.visibility !== 'public')
      throw badRequest(PROFILE_MSG.mediaUnknown, 'UNKNOWN_MEDIA');
    if (info.status === 'failed') throw badRequest(PROFILE_MSG.mediaFailed, 'MEDIA_FAILED');
    return info;
  }

  /** GET /hunter/handle/{handle} */
  async profileByHandle(handle: string): Promise<HunterProfile> {
    const hunter = await findHunterByHandle(this.ctx.db, handle);
    if (!hunter || hunter.suspendedAt) throw notFound(PROFILE_MSG.noProfile, 'HUNTER_NOT_FOUND');
    const stats = await hunterStats(this.ctx.db, hunter.id);
    return { ...presentHunter(hunter), stats };
  }

  /** GET /posts/{hunterId} */
  async posts(hunterId: number, q: PageQuery): Promise<Page<Post>> {
    await this.hunterOr404(hunterId);
    const limit = pageLimit(q.limit, PROFILE_PAGE);
    const c = cursorOf(q.cursor, ['p']);
    const rows = await listPosts(
      this.ctx.db,
      hunterId,
      limit + 1,
      c && { ts: c.c, id: c.i, mode: 'by-id' },
    );
    const page = takePage(rows, limit, (last) => keyOf('p', last));
    return { items: page.rows.map(presentPost), next: page.next };
  }

  /** GET /user/claims/{hunterId} */
  async claims(hunterId: number, q: PageQuery): Promise<Page<ProfileClaim>> {
    await this.hunterOr404(hunterId);
    const limit = pageLimit(q.limit, PROFILE_PAGE);
    const c = cursorOf(q.cursor, ['c']);
    const rows = await listHunterClaims(
      this.ctx.db,
      hunterId,
      limit + 1,
      c && { ts: c.c, id: c.i, mode: 'by-id' },
    );
    const page = takePage(rows, limit, (last) => keyOf('c', last));
    return { items: page.rows.map(presentRankedClaim), next: page.next };
  }

  /**
   * GET /hunter/{hunterId}/feed: posts and claims merged, newest first. Total order:
   * created desc, then posts before claims, then id desc; each side is read by keyset.
   */
  async feed(hunterId: number, q: PageQuery): Promise<Page<FeedItem>> {
    await this.hunterOr404(hunterId);
    const limit = pageLimit(q.limit, PROFILE_PAGE);
    const c = cursorOf(q.cursor, ['p', 'c']);
    let postAfter: Keyset | undefined;
    let claimAfter: Keyset | undefined;
    if (c?.k === 'p') {
      postAfter = { ts: c.c, id: c.i, mode: 'by-id' };
      claimAfter = { ts: c.c, id: c.i, mode: 'inclusive' };
    } else if (c?.k === 'c') {
      postAfter = { ts: c.c, id: c.i, mode: 'strict' };
      claimAfter = { ts: c.c, id: c.i, mode: 'by-id' };
    }
    const [postRows, claimRows] = await Promise.all([
      listPosts(this.ctx.db, hunterId, limit + 1, postAfter),
      listHunterClaims(this.ctx.db, hunterId, limit + 1, claimAfter),
    ]);
    type Entry =
      | { kind: 'p'; ts: string; id: number; row: PostRowOut }
      | { kind: 'c'; ts: string; id: number; row: HunterClaimRow };
    const merged: Entry[] = [
      ...postRows.map((row) => ({ kind: 'p' as const, ts: row.ts, id: row.id, row })),
      ...claimRows.map((row) => ({ kind: 'c' as const, ts: row.ts, id: row.id, row })),
    ].sort((a, b) => {
      if (a.ts !== b.ts) return a.ts < b.ts ? 1 : -1;
      if (a.kind !== b.kind) return a.kind === 'p' ? -1 : 1;
      return b.id - a.id;
    });
    const page = takePage(merged, limit, (last) => keyOf(last.kind, last));
    return {
      items: page.rows.map((e): FeedItem => {
        if (e.kind === 'p') {
          const post = presentPost(e.row);
          return { type: 'post', created: post.created, post };
        }
        const claim = presentRankedClaim(e.row);
        return { type: 'claim', created: claim.created, claim };
      }),
      next: page.next,
    };
  }

  /** POST /post */
  async createPost(actor: Actor, input: PostCreateInput): Promise<Post> {
    const hunter = await this.actorHunter(actor);
    await this.ownMedia(actor, input.fileName);
    if (input.bountyId !== undefined && !(await bountyExists(this.ctx.db, input.bountyId)))
      throw notFound(PROFILE_MSG.bountyNotFound, 'BOUNTY_NOT_FOUND');
    const text = input.text.trim();
    const row = await insertPost(this.ctx.db, {
      hunterId: hunter.id,
      bountyId: input.bountyId ?? null,
      file: input.fileName,
      text: text === '' ? null : text,
    });
    return presentPost(row);
  }

  /** PUT /hunter/banner */
  async setBanner(actor: Actor, input: BannerInput): Promise<Hunter> {
    const hunter = await this.actorHunter(actor);
    const info = await this.ownMedia(actor, input.banner);
    if (info.kind !== 'image') throw badRequest(PROFILE_MSG.bannerNotImage, 'BANNER_NOT_IMAGE');
    await this.users.setHunterBanner(hunter.id, input.banner);
    return presentHunter({ ...hunter, banner: input.banner });
  }

  /** GET /hunters */
  async directory(q: DirectoryQuery): Promise<Page<HunterCard>> {
    const limit = pageLimit(q.limit, DIRECTORY_PAGE);
    const afterHandle = decodeCursor(q.cursor, directoryCursor, invalidCursor)?.h;
    const rows = await listDirectory(this.ctx.db, {
      term: q.q || undefined,
      afterHandle,
      limit: limit + 1,
    });
    const page = takePage(rows, limit, (last) => ({ h: last.handle.toLowerCase() }));
    return {
      items: page.rows.map((r) => ({
        hunterId: r.id,
        handle: r.handle,
        stagename: r.stagename,
        picture: r.picture,
        bio: r.bio,
        stats: { posts: Number(r.posts), claims: Number(r.claims), votes: Number(r.votes) },
      })),
      next: page.next,
    };
  }
}

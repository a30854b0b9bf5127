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
import type { Actor, ServiceContext } from '../../context';
import { badRequest, forbidden, notFound } from '../../errors';
import {
  bountyExists,
  findHunterByHandle,
  findHunterById,
  findHunterByUserId,
  findMedia,
  hunterStats,
  insertPost,
  listClaims,
  listDirectory,
  listPosts,
  setBanner,
  type ClaimRowOut,
  type HunterWithHandle,
  type Keyset,
  type PostRowOut,
} from './profiles.repository';

export interface Page<T> {
  items: T[];
  /** Cursor of the next page, or null on the last one. */
  next: string | null;
}

// ---- cursors: opaque base64url of "kind.timestamp.id" ----------------------------------------

type Kind = 'p' | 'c';
interface Cursor {
  kind: Kind;
  ts: string;
  id: number;
}
const TS_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeCursor(c: Cursor): string {
  return Buffer.from(`${c.kind}.${c.ts}.${c.id}`).toString('base64url');
}

export function decodeCursor(raw: string | undefined, kinds: readonly Kind[]): Cursor | undefined {
  if (raw === undefined || raw === '') return undefined;
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const m = /^([pc])\.([^.]+\.\d{6}Z)\.(\d{1,10})$/.exec(text);
  const id = m ? Number(m[3]) : NaN;
  if (
    !m ||
    !kinds.includes(m[1] as Kind) ||
    !TS_RE.test(m[2]!) ||
    Number.isNaN(Date.parse(m[2]!)) ||
    id < 1 ||
    id > 2_147_483_647
  )
    throw badRequest(PROFILE_MSG.invalidCursor, 'INVALID_CURSOR');
  return { kind: m[1] as Kind, ts: m[2]!, id };
}

// ---- presenters ------------------------------------------------------------------------------

/** The microsecond cursor text → an ISO date (ms), driver-independent. */
const isoOf = (ts: string) => `${ts.slice(0, 23)}Z`;
const isoDate = (v: Date | string | null) => (v == null ? null : new Date(v).toISOString());

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
    created: isoOf(row.ts),
  };
}

function presentClaim(row: ClaimRowOut): ProfileClaim {
  return {
    claimId: row.id,
    bountyId: row.bounty_id,
    bounty: { bountyId: row.bounty_id, title: row.title },
    roundId: row.round_number,
    round: { roundId: row.round_number, endDate: isoDate(row.end_date) },
    hunter: {
      hunterId: row.hunter_id,
      handle: row.handle,
      stagename: row.stagename,
      picture: row.picture,
    },
    media: row.media,
    votes: row.votes,
    created: isoOf(row.ts),
    rank: Number(row.rank),
  };
}

const limitOf = (q: PageQuery, def: number = PAGE.defaultLimit) =>
  Math.min(q.limit ?? def, PAGE.maxLimit);

export class ProfilesService {
  constructor(private readonly ctx: ServiceContext) {}

  private async hunterOr404(hunterId: number): Promise<HunterWithHandle> {
    const hunter = await findHunterById(this.ctx.db, hunterId);
    if (!hunter) throw notFound(PROFILE_MSG.hunterNotFound, 'HUNTER_NOT_FOUND');
    return hunter;
  }

  private async actorHunter(actor: Actor): Promise<HunterWithHandle> {
    const hunter = hasRole(actor.role, ROLE.hunter)
      ? await findHunterByUserId(this.ctx.db, actor.userId)
      : undefined;
    if (!hunter) throw forbidden(PROFILE_MSG.notHunter, 'NOT_HUNTER');
    return hunter;
  }

  /** A key from POST /media/*: uploaded by this user, public, not failed. */
  private async ownMedia(actor: Actor, key: string) {
    const info = await findMedia(this.ctx.db, key);
    if (!info || info.ownerId !== actor.userId || info.visibility !== 'public')
      throw badRequest(PROFILE_MSG.mediaUnknown, 'UNKNOWN_MEDIA');
    if (info.status === 'failed') throw badRequest(PROFILE_MSG.mediaFailed, 'MEDIA_FAILED');
    return info;
  }

  /** GET /hunter/handle/{handle} */
  async profileByHandle(handle: string): Promise<HunterProfile> {
    const hunter = await findHunterByHandle(this.ctx.db, handle);
    if (!hunter) throw notFound(PROFILE_MSG.noProfile, 'HUNTER_NOT_FOUND');
    const stats = await hunterStats(this.ctx.db, hunter.id);
    return { ...presentHunter(hunter), stats };
  }

  /** GET /posts/{hunterId} */
  async posts(hunterId: number, q: PageQuery): Promise<Page<Post>> {
    await this.hunterOr404(hunterId);
    const limit = limitOf(q);
    const c = decodeCursor(q.cursor, ['p']);
    const rows = await listPosts(
      this.ctx.db,
      hunterId,
      limit + 1,
      c && { ts: c.ts, id: c.id, mode: 'by-id' },
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(presentPost),
      next:
        rows.length > limit && last ? encodeCursor({ kind: 'p', ts: last.ts, id: last.id }) : null,
    };
  }

  /** GET /user/claims/{hunterId} */
  async claims(hunterId: number, q: PageQuery): Promise<Page<ProfileClaim>> {
    await this.hunterOr404(hunterId);
    const limit = limitOf(q);
    const c = decodeCursor(q.cursor, ['c']);
    const rows = await listClaims(
      this.ctx.db,
      hunterId,
      limit + 1,
      c && { ts: c.ts, id: c.id, mode: 'by-id' },
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(presentClaim),
      next:
        rows.length > limit && last ? encodeCursor({ kind: 'c', ts: last.ts, id: last.id }) : null,
    };
  }

  /**
   * GET /hunter/{hunterId}/feed: posts and claims merged, newest first. Total order:
   * created desc, then posts before claims, then id desc; each side is read by keyset.
   */
  async feed(hunterId: number, q: PageQuery): Promise<Page<FeedItem>> {
    await this.hunterOr404(hunterId);
    const limit = limitOf(q);
    const c = decodeCursor(q.cursor, ['p', 'c']);
    let postAfter: Keyset | undefined;
    let claimAfter: Keyset | undefined;
    if (c?.kind === 'p') {
      postAfter = { ts: c.ts, id: c.id, mode: 'by-id' };
      claimAfter = { ts: c.ts, id: c.id, mode: 'inclusive' };
    } else if (c?.kind === 'c') {
      postAfter = { ts: c.ts, id: c.id, mode: 'strict' };
      claimAfter = { ts: c.ts, id: c.id, mode: 'by-id' };
    }
    const [postRows, claimRows] = await Promise.all([
      listPosts(this.ctx.db, hunterId, limit + 1, postAfter),
      listClaims(this.ctx.db, hunterId, limit + 1, claimAfter),
    ]);
    type Entry =
      | { kind: 'p'; ts: string; id: number; row: PostRowOut }
      | { kind: 'c'; ts: string; id: number; row: ClaimRowOut };
    const merged: Entry[] = [
      ...postRows.map((row) => ({ kind: 'p' as const, ts: row.ts, id: row.id, row })),
      ...claimRows.map((row) => ({ kind: 'c' as const, ts: row.ts, id: row.id, row })),
    ].sort((a, b) => {
      if (a.ts !== b.ts) return a.ts < b.ts ? 1 : -1;
      if (a.kind !== b.kind) return a.kind === 'p' ? -1 : 1;
      return b.id - a.id;
    });
    const page = merged.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((e): FeedItem => {
        if (e.kind === 'p') {
          const post = presentPost(e.row);
          return { type: 'post', created: post.created, post };
        }
        const claim = presentClaim(e.row);
        return { type: 'claim', created: claim.created, claim };
      }),
      next:
        merged.length > limit && last
          ? encodeCursor({ kind: last.kind, ts: last.ts, id: last.id })
          : null,
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
    await setBanner(this.ctx.db, hunter.id, input.banner);
    return presentHunter({ ...hunter, banner: input.banner });
  }

  /** GET /hunters */
  async directory(q: DirectoryQuery): Promise<Page<HunterCard>> {
    const limit = limitOf(q, PAGE.directoryDefaultLimit);
    let afterHandle: string | undefined;
    if (q.cursor) {
      afterHandle = Buffer.from(q.cursor, 'base64url').toString('utf8');
      if (afterHandle === '' || afterHandle.length > 100)
        throw badRequest(PROFILE_MSG.invalidCursor, 'INVALID_CURSOR');
    }
    const rows = await listDirectory(this.ctx.db, {
      term: q.q || undefined,
      afterHandle,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => ({
        hunterId: r.id,
        handle: r.handle,
        stagename: r.stagename,
        picture: r.picture,
        bio: r.bio,
        stats: { posts: Number(r.posts), claims: Number(r.claims), votes: Number(r.votes) },
      })),
      next:
        rows.length > limit && last
          ? Buffer.from(last.handle.toLowerCase()).toString('base64url')
          : null,
    };
  }
}

import { describe, expect, it } from 'vitest';
import {
  bannerSchema,
  pageQuery,
  postCancelTarget,
  postCreateSchema,
  PROFILE_MSG,
} from './profiles';

describe('postCreateSchema (SPEC.md §5: post body at most 200)', () => {
  it('takes 200 characters and refuses 201', () => {
    expect(postCreateSchema.safeParse({ text: 'x'.repeat(200), fileName: 'i-a' }).success).toBe(
      true,
    );
    const long = postCreateSchema.safeParse({ text: 'x'.repeat(201), fileName: 'i-a' });
    expect(long.success).toBe(false);
  });

  it('needs a media key; the body may be left out', () => {
    expect(postCreateSchema.safeParse({ text: 'hi' }).success).toBe(false);
    expect(postCreateSchema.parse({ fileName: 'v-abc' })).toEqual({ text: '', fileName: 'v-abc' });
  });

  it('accepts a bounty id from /bounty/post/{id} and refuses one out of range', () => {
    expect(postCreateSchema.parse({ fileName: 'i-a', bountyId: '12' }).bountyId).toBe(12);
    expect(postCreateSchema.safeParse({ fileName: 'i-a', bountyId: 0 }).success).toBe(false);
    expect(postCreateSchema.safeParse({ fileName: 'i-a', bountyId: 2 ** 31 }).success).toBe(false);
  });
});

describe('profiles helpers', () => {
  it('Cancel returns to the bounty when posting from one, else to /profile', () => {
    expect(postCancelTarget('7')).toBe('/bounty/7');
    expect(postCancelTarget(undefined)).toBe('/profile');
    expect(postCancelTarget('')).toBe('/profile');
  });

  it('pages hold 1 to 100 items', () => {
    expect(pageQuery.safeParse({ limit: '100' }).success).toBe(true);
    expect(pageQuery.safeParse({ limit: '101' }).success).toBe(false);
    expect(pageQuery.safeParse({ limit: '0' }).success).toBe(false);
  });

  it('a banner needs a key', () => {
    expect(bannerSchema.safeParse({ banner: '' }).success).toBe(false);
  });

  it('the post error text is SPEC.md §8', () => {
    expect(PROFILE_MSG.postError(413)).toBe('Error updating profile code 413');
  });
});

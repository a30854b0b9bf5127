/**
 * Texts of reports and moderation (issue 17 part 5). No zod here: the hidden marker on the
 * claim, bounty and profile pages imports this module; the schemas are in moderation.ts.
 */
export const REPORT_MSG = {
  sent: 'Thanks, your report was sent to our moderators.',
  alreadyReported: 'You have already reported this. Our moderators will look at it.',
  notFound: 'There is nothing to report here.',
  hiddenMarker: 'Hidden by moderators',
  failed: 'Your report could not be sent. Please try again.',
} as const;

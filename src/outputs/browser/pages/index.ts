// The schema browser's pages, rendered from the API's objects: pure functions, the same HTML for the
// same objects. Curator HTML goes through the sanitiser; every other text is escaped.

export { shell, CONTENT_SECURITY_POLICY, ICON_PATH, ICON_SVG, SCRIPT_PATH, STYLESHEET_PATH, SITE_NAME } from './shell.ts';
export { addressPage, ADDRESS_PATH } from './address.ts';
export { notFoundPage } from './not-found.ts';
export type { Crumb, ShellOptions } from './shell.ts';
export { stylesheet } from './style.ts';
export { homePage, surveyPage, releasePage, releaseCounts, countsText } from './survey.ts';
export type { ReleaseCounts } from './survey.ts';
export { groupPage, tablePage, isMain } from './catalogues.ts';
export { facilityPage, bandPage, fitsValue, inlinePicture, pictureFigure, regionId } from './imaging.ts';
export type { FacilityPictures } from './imaging.ts';
export { productFacilityPage, productId, wavelengthRange } from './products.ts';
export { columnId, linkFrom, pageHref, rootOf, segment, ucdHtml, unitHtml } from './html.ts';
export type { PagePath } from './html.ts';
export { childPath, parentPath, releasePath, surveyPath } from './places.ts';
export type { DataKind, ParentPlace, ReleasePlace, SurveyPlace } from './places.ts';
export type * from './types.ts';

import type { SiteInfo } from '../../shared/page-render.js';
import type { SiteSettings } from '../../shared/site-settings-schema.js';
import type { ImageStorage } from '../storage/storage.js';
import { iconFileUrl } from './site-images.js';

/**
 * What pages are told about the site (`SiteInfo`, carried in every page's state, so kept small):
 * the settings readers see, with the logo's and favicon's URLs. Registration, roles and review
 * are the server's business and stay out.
 */
export function siteInfoOf(settings: SiteSettings, publicUrl: string, storage: Pick<ImageStorage, 'publicUrl'>): SiteInfo {
  return {
    name: settings.siteName,
    publicUrl,
    description: settings.description,
    accentColour: settings.accentColour,
    navigation: settings.navigation,
    footerText: settings.footerText,
    showAuthorsBy: settings.showAuthorsBy,
    tipJarUrl: settings.tipJarUrl,
    logoUrl: settings.logoImageId ? storage.publicUrl(settings.logoImageId) : null,
    iconUrl: settings.iconImageId ? iconFileUrl(settings.iconImageId, 64) : null,
  };
}

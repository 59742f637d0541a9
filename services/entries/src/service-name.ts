/** The service's name: its events' source, its database's and its metrics' label (written once). */
export const SERVICE = 'entries';

import { contractAt, WEBHOOK_EVENT_TYPES } from '@travel/contracts';
import { checkRegistration, MAX_URL_LENGTH } from './subscription-rules';

const GOOD_URL = 'https://hooks.partner.example/travel?source=te';

describe('checkRegistration', () => {
  it('accepts a good registration: no errors and the parsed URL', () => {
    const { errors, parsed } = checkRegistration(GOOD_URL, ['entry.approved']);
    expect(errors).toEqual({});
    expect(parsed).toBeInstanceOf(URL);
    expect(parsed?.href).toBe(GOOD_URL);
    expect(parsed?.hostname).toBe('hooks.partner.example');
  });

  it('accepts every catalog event type together', () => {
    expect(checkRegistration(GOOD_URL, [...WEBHOOK_EVENT_TYPES]).errors).toEqual({});
  });

  it.each([
    'https://hooks.partner.example',
    'https://hooks.partner.example:8443/a/b',
    'HTTPS://HOOKS.PARTNER.EXAMPLE/x',
    'https://8.8.8.8/hook',
    'https://[2606:4700:4700::1111]/hook',
  ])('accepts the HTTPS URL %s', (url) => {
    const { errors, parsed } = checkRegistration(url, ['entry.approved']);
    expect(errors).toEqual({});
    expect(parsed?.protocol).toBe('https:');
  });

  describe('url', () => {
    it.each([
      ['plain HTTP', 'http://hooks.partner.example/travel', 'must use HTTPS'],
      ['another scheme', 'ftp://hooks.partner.example/travel', 'must use HTTPS'],
      ['ws', 'wss://hooks.partner.example/travel', 'must use HTTPS'],
      ['user and password', 'https://user:pass@hooks.partner.example/travel', 'must not contain credentials'],
      ['a user only', 'https://user@hooks.partner.example/travel', 'must not contain credentials'],
      ['a password only', 'https://:pass@hooks.partner.example/travel', 'must not contain credentials'],
      ['a fragment', 'https://hooks.partner.example/travel#section', 'must not contain a fragment'],
      ['not a URL', 'not a url', 'must be an absolute URL'],
      ['a relative URL', '/travel/hooks', 'must be an absolute URL'],
      ['an empty string', '', 'must be an absolute URL'],
      ['no host', 'https://', 'must be an absolute URL'],
    ])('refuses %s', (_name, url, message) => {
      const { errors, parsed } = checkRegistration(url, ['entry.approved']);
      expect(errors).toEqual({ url: [message] });
      expect(parsed).toBeUndefined();
    });

    it('lists every problem of the URL at once', () => {
      const { errors, parsed } = checkRegistration('http://u:p@hooks.partner.example/#frag', ['entry.approved']);
      expect(errors).toEqual({
        url: ['must use HTTPS', 'must not contain credentials', 'must not contain a fragment'],
      });
      expect(parsed).toBeUndefined();
    });

    it('refuses a URL without a host name (non-special scheme)', () => {
      expect(checkRegistration('mailto:ops@partner.example', ['entry.approved']).errors).toEqual({
        url: ['must use HTTPS', 'must name a host'],
      });
    });
  });

  describe('eventTypes', () => {
    it('refuses an empty list', () => {
      const { errors, parsed } = checkRegistration(GOOD_URL, []);
      expect(errors).toEqual({ eventTypes: ['must name at least one event type'] });
      expect(parsed).toBeUndefined();
    });

    it.each(['entry.deleted', 'Entry.Approved', 'entry.approved ', 'trip.requested', ''])(
      'refuses the unknown type %p',
      (type) => {
        const { errors, parsed } = checkRegistration(GOOD_URL, ['entry.approved', type]);
        expect(errors).toEqual({ eventTypes: [`"${type}" is not an event type`] });
        expect(parsed).toBeUndefined();
      },
    );

    it('refuses a type listed twice, once per extra occurrence', () => {
      const { errors } = checkRegistration(GOOD_URL, [
        'entry.created',
        'entry.updated',
        'entry.created',
        'entry.created',
      ]);
      expect(errors).toEqual({ eventTypes: ['"entry.created" is listed twice', '"entry.created" is listed twice'] });
    });

    it('reports unknown and duplicate types together, in list order', () => {
      const { errors } = checkRegistration(GOOD_URL, ['nope', 'employee.updated', 'employee.updated']);
      expect(errors).toEqual({ eventTypes: ['"nope" is not an event type', '"employee.updated" is listed twice'] });
    });
  });

  it('reports url and eventTypes problems together', () => {
    const { errors, parsed } = checkRegistration('http://hooks.partner.example', []);
    expect(errors).toEqual({ url: ['must use HTTPS'], eventTypes: ['must name at least one event type'] });
    expect(parsed).toBeUndefined();
  });
});

describe('sizes hold without the contract validator (docs/decisions/0107)', () => {
  it('a URL over 2,048 characters is refused before it is parsed', () => {
    const url = `https://partner.example/${'a'.repeat(2048)}`;
    expect(checkRegistration(url, ['entry.approved']).errors).toEqual({
      url: ['must NOT have more than 2048 characters'],
    });
  });

  it('event types that are not a list are refused, not a 500', () => {
    expect(checkRegistration('https://partner.example/hook', 'entry.approved' as never).errors).toEqual({
      eventTypes: ['must be array'],
    });
  });

  it('the figure is the contract’s', () => {
    expect(contractAt('/components/schemas/CreateWebhookRequest/properties/url/maxLength')).toBe(MAX_URL_LENGTH);
  });
});

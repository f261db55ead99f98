import { ContractError } from './client.js';
import { eventStreamUrl, feedUrl, parseServerEvent } from './events.js';

const RID = 'rad:z3gqcJUoA1n9HaHKufZs5FCSGazv5';

describe('server events', () => {
  it('types an event by its name after checking its data', () => {
    const data = JSON.stringify({ rid: RID, refs: { 'refs/heads/main': 'a'.repeat(40), 'refs/tags/v1': null } });
    expect(parseServerEvent({ type: 'refs', lastEventId: '7', data })).toEqual({ type: 'refs', id: '7', data: JSON.parse(data) as unknown });
    expect(parseServerEvent({ type: 'repo', lastEventId: '8', data: JSON.stringify({ rid: RID, public: false }) })?.data).toEqual({ rid: RID, public: false });
  });

  it('leaves out event names it does not know, and refuses data that breaks the contract', () => {
    expect(parseServerEvent({ type: 'message', lastEventId: '', data: '{}' })).toBeNull();
    expect(() => parseServerEvent({ type: 'issue', lastEventId: '1', data: JSON.stringify({ rid: RID, id: 'nope' }) })).toThrow(ContractError);
    expect(() => parseServerEvent({ type: 'issue', lastEventId: '1', data: 'not json' })).toThrow(ContractError);
  });

  it('builds the stream and feed URLs', () => {
    expect(eventStreamUrl('http://h/')).toBe('http://h/api/v1/events');
    expect(eventStreamUrl('http://h', RID)).toBe(`http://h/api/v1/repos/${encodeURIComponent(RID)}/events`);
    expect(feedUrl('http://h', RID, 'issues')).toBe(`http://h/api/v1/repos/${encodeURIComponent(RID)}/feeds/issues.atom`);
  });
});

import { LIBRARY_NAME } from '@forge-httpd/identity';
it('exports its name', () => { expect(LIBRARY_NAME).toBe('@forge-httpd/identity'); });

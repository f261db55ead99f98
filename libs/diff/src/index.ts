export const LIBRARY_NAME = '@forge-httpd/diff';

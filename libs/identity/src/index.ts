export const LIBRARY_NAME = '@forge-httpd/identity';

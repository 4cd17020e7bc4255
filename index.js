// n8n loads the nodes and the credential from the paths in package.json's "n8n" section.
module.exports = {};

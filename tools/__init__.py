"""Developer tools that are not part of the dmem package: the docs site's generators and hooks."""

def prefetch(root):
    return 0

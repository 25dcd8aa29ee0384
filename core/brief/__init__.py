"""brief"""

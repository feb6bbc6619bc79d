"""fpgatrax.sim"""

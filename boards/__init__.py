"""fpgatrax.boards"""

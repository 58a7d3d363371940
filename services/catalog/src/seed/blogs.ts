/** Our own writing on buying used TVs, in the spec's blog shape (a question and up to five paragraphs). */
export const seedBlogs = [
  {
    blogId: 'checking-a-used-panel',
    ques: 'How do I check the panel of a used TV before I pay?',
    paragraphs: [
      'Ask the seller to show the set switched on for at least ten minutes. Some faults, such as a backlight that flickers or a line that appears across the picture, only show once the panel is warm.',
      'Show a plain white, a plain black and a plain red picture in turn. On white, look for dark patches or yellow corners; on black, look for bright pixels that stay lit; on red, look for pixels that stay dark.',
      'Look at the screen from the side as well as from the front. A cracked layer inside the panel often shows as a rainbow-coloured smear that moves when you change your angle.',
      'Finally, ask how many hours a day the set was used. A panel that ran a shop display all day has aged far more than its years suggest.',
    ],
  },
  {
    blogId: 'fair-price',
    ques: 'What is a fair price for a TV that is two or three years old?',
    paragraphs: [
      'As a rule of thumb, a TV in good condition loses about a third of its price in the first year and a little less in each year after that.',
      'A two-year-old set with its remote, stand and box is usually worth about half of its original price; without the box, somewhat less.',
      'Smart features matter more than size: an older smart TV that no longer gets app updates may be worth less than a newer plain one.',
      'Compare the resale price with the original price shown on each listing, and do not be shy to ask the seller for a receipt.',
    ],
  },
  {
    blogId: 'safe-meeting',
    ques: 'Where should I meet the seller, and how should I pay?',
    paragraphs: [
      'Choose a public place where the set can be plugged in: many electronics shops will let you test a TV for a small fee.',
      'Book the TV on TV Shop first, so that the seller knows who is coming and the booking is on record.',
      'Pay through TV Shop by card only once you have seen the set working. The payment is tied to your booking, so you have a record of what you paid and for which TV.',
      'Bring a friend to help carry the set, and a blanket to protect the screen on the way home.',
    ],
  },
  {
    blogId: 'what-to-ask',
    ques: 'Which questions should I ask the seller?',
    paragraphs: [
      'Why are you selling it? A seller upgrading to a bigger screen is a better sign than one who only says it is not needed.',
      'Has it ever been repaired, and by whom? A replaced main board is not a problem if the repair was done by an authorised service centre.',
      'Which wall mount or stand does it use, and does it come with it?',
    ],
  },
];
